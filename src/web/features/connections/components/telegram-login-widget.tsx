import { t } from '@lingui/core/macro';
import { useEffect, useRef } from 'react';
import { useLocale } from '#web/features/language';

const WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js?22';

/**
 * Telegram's Login Widget (docs/providers.md): Telegram's script draws its button in this container and, once
 * the person confirms, sends the browser to `authUrl` (/telegram-callback) with the signed fields.
 * Allowed by the Content-Security-Policy only when a real bot is configured.
 */
export function TelegramLoginWidget({ botName, authUrl }: { botName: string; authUrl: string }) {
  useLocale();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = container.current;
    if (!host) return;
    const script = document.createElement('script');
    script.async = true;
    script.src = WIDGET_SCRIPT;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'medium');
    script.setAttribute('data-auth-url', authUrl);
    script.setAttribute('data-request-access', 'write');
    host.appendChild(script);
    return () => {
      host.replaceChildren();
    };
  }, [botName, authUrl]);

  return <div ref={container} className="telegram-widget" aria-label={t`Log in with Telegram`} role="group" />;
}
