import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocale } from '#web/features/language';

/** The token the sandbox check hands out; the server's sandbox accepts anything but 'sandbox-fail'. */
export const SANDBOX_BOT_CHECK_TOKEN = 'sandbox-pass';

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface TurnstileApi {
  render(element: HTMLElement, options: Record<string, unknown>): string;
  remove(widgetId: string): void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export interface BotCheckProps {
  /** Called with a token once the visitor passes the check, and with null when it lapses. */
  onToken: (token: string | null) => void;
  /** Cloudflare Turnstile site key. Without one the check runs in sandbox mode. */
  siteKey?: string | null;
  /** Set to a new value after a failed submit: the used token is single-use, so the check starts over. */
  resetKey?: number;
}

/**
 * The bot check at login and registration (docs/product.md#overview; verified server-side, docs/product.md#accounts).
 * Sandbox mode is a plainly labelled checkbox, so the product works offline exactly as with a real key.
 */
export function BotCheck({ onToken, siteKey, resetKey = 0 }: BotCheckProps) {
  return siteKey ? (
    <TurnstileWidget key={resetKey} siteKey={siteKey} onToken={onToken} />
  ) : (
    <SandboxCheck key={resetKey} onToken={onToken} />
  );
}

function SandboxCheck({ onToken }: Pick<BotCheckProps, 'onToken'>) {
  const id = useId();
  useLocale();
  const [checked, setChecked] = useState(false);
  return (
    <div className="bot-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={`${id}-note`}
        onChange={(event) => {
          setChecked(event.target.checked);
          onToken(event.target.checked ? SANDBOX_BOT_CHECK_TOKEN : null);
        }}
      />
      <label htmlFor={id}>{t`I'm not a robot`}</label>
      <p id={`${id}-note`} className="field-note">
        {t`Sandbox bot check: no Cloudflare Turnstile key is configured on this server.`}
      </p>
    </div>
  );
}

let scriptPromise: Promise<void> | null = null;
function loadTurnstile(): Promise<void> {
  scriptPromise ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error('The bot check could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

function TurnstileWidget({ siteKey, onToken }: { siteKey: string; onToken: BotCheckProps['onToken'] }) {
  useLocale();
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // The widget keeps the callback it was rendered with; a ref lets it always reach the latest one.
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  }, [onToken]);

  useEffect(() => {
    let widgetId: string | null = null;
    let cancelled = false;
    loadTurnstile()
      .then(() => {
        if (cancelled || !container.current || !window.turnstile) return;
        widgetId = window.turnstile.render(container.current, {
          sitekey: siteKey,
          callback: (token: string) => onTokenRef.current(token),
          'expired-callback': () => onTokenRef.current(null),
          'error-callback': () => onTokenRef.current(null),
        });
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (widgetId && window.turnstile) window.turnstile.remove(widgetId);
    };
  }, [siteKey]);

  return (
    <div className="bot-check">
      <div ref={container} />
      {failed && (
        <p className="field-error" role="alert">
          {t`The bot check could not be loaded. Check your connection and reload the page.`}
        </p>
      )}
    </div>
  );
}
