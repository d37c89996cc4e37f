import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import type { TelegramConfigResponse } from '#shared/schemas/connections';
import { discordAvatarUrl } from '#shared/schemas/sandbox';
import { isGuestUser, useSessionStore } from '#web/features/auth';
import { useSessionUser } from '#web/features/auth/user';
import { useSandboxInfo } from '#web/features/sandbox';
import { useDisconnectDiscord } from '../api/disconnect-discord';
import { useDiscordAuthorizeUrl } from '../api/get-discord-authorize-url';
import { useQueryClient } from '@tanstack/react-query';
import { telegramConfigQueryOptions, useTelegramConfig } from '../api/get-telegram-config';
import { useDisconnectTelegram } from '../api/disconnect-telegram';
import { CONNECT_MESSAGES } from '../lib/connect-messages';
import { TelegramLoginWidget } from './telegram-login-widget';
import { RichText, useLocale } from '#web/features/language';
import '../connections.css';

/** Leaves the app for the provider's page (a full navigation: the provider is another site). */
function goTo(url: string): void {
  window.location.assign(url);
}

/**
 * A Discord avatar from its CDN, or the local placeholder while Discord is a sandbox (nothing is loaded
 * from the internet then; decision 0231). The initial stands in when there is none, it cannot load, or
 * the server's configuration is not known yet.
 */
function DiscordAvatar({ id, avatar, name }: { id: string; avatar: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  const sandbox = useSandboxInfo();
  if (!avatar || failed || !sandbox) {
    return (
      <span className="connection-avatar" aria-hidden="true">
        {name.slice(0, 1).toUpperCase() || '?'}
      </span>
    );
  }
  return (
    <img
      className="connection-avatar"
      src={discordAvatarUrl(id, avatar, sandbox.sandboxes.includes('discord'))}
      alt=""
      width={40}
      height={40}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

interface RowProps {
  provider: 'Discord' | 'Telegram';
  /** Who is connected, or null. */
  account: ReactNode | null;
  icon: ReactNode;
  connect: ReactNode;
  onDisconnect: () => Promise<boolean>;
  /** The disconnect mutation is running. */
  disconnecting: boolean;
}

/** One provider: its state, and Connect or Disconnect (with a confirmation step). */
function ConnectionRow({ provider, account, icon, connect, onDisconnect, disconnecting: busy }: RowProps) {
  useLocale();
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const disconnectRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    // Back to the button that opened the question, so keyboard users keep their place.
    requestAnimationFrame(() => disconnectRef.current?.focus());
  };

  const confirm = async () => {
    if (busy) return;
    const ok = await onDisconnect();
    setConfirming(false);
    if (!ok) requestAnimationFrame(() => disconnectRef.current?.focus());
  };

  return (
    <li className="connection-row" aria-labelledby={titleId} data-provider={provider.toLowerCase()} data-connected={account !== null}>
      <div className="connection-main">
        {icon}
        <div className="connection-text">
          <h3 id={titleId}>{provider}</h3>
          <p className="muted connection-status">{account ?? t`Not connected`}</p>
        </div>
      </div>
      <div className="connection-actions">
        {account === null && connect}
        {account !== null && !confirming && (
          <button ref={disconnectRef} type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(true)}>
            {t`Disconnect`}
          </button>
        )}
      </div>
      {account !== null && confirming && (
        <div className="connection-confirm" role="group" aria-label={t`Confirm disconnecting ${provider}`}>
          <p>{t`Disconnect your ${provider} account from Olympus? You can connect it again at any time.`}</p>
          <div className="connection-confirm-actions">
            <button ref={confirmRef} type="button" className="btn btn-danger btn-small" disabled={busy} onClick={() => void confirm()}>
              {busy ? t`Disconnecting…` : t`Yes, disconnect ${provider}`}
            </button>
            <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={cancel}>
              {t`Keep it connected`}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

function DiscordConnectButton() {
  useLocale();
  const authorizeUrl = useDiscordAuthorizeUrl();
  // Once the URL is here the browser is leaving for Discord: the button stays busy until it has.
  const pending = authorizeUrl.isPending || authorizeUrl.isSuccess;
  const connect = async () => {
    if (pending) return;
    try {
      goTo(await authorizeUrl.mutateAsync());
    } catch {
      toast.error(CONNECT_MESSAGES.discord.connectFailed);
    }
  };
  return (
    <button type="button" className="btn btn-primary btn-small" disabled={pending} onClick={() => void connect()}>
      {pending ? t`Opening Discord…` : t`Connect Discord`}
    </button>
  );
}

type TelegramLoad = { state: 'loading' } | { state: 'ready'; config: TelegramConfigResponse } | { state: 'error' };

/** The sandbox login page behind a button, or Telegram's own Login Widget when a real bot is configured. */
function TelegramConnect() {
  useLocale();
  const client = useQueryClient();
  const configQuery = useTelegramConfig();
  const load: TelegramLoad = configQuery.data
    ? { state: 'ready', config: configQuery.data }
    : configQuery.isError
      ? { state: 'error' }
      : { state: 'loading' };

  // Not loaded (it failed): ask again when the button is pressed.
  const fetchConfig = () => client.fetchQuery(telegramConfigQueryOptions()).catch(() => null);

  if (load.state === 'ready' && !load.config.sandboxLoginUrl) {
    return <TelegramLoginWidget botName={load.config.botName} authUrl={load.config.authUrl} />;
  }

  const connect = async () => {
    const config = load.state === 'ready' ? load.config : await fetchConfig();
    if (config?.sandboxLoginUrl) goTo(config.sandboxLoginUrl);
    else if (!config) toast.error(CONNECT_MESSAGES.telegram.connectFailed);
  };

  return (
    <button type="button" className="btn btn-primary btn-small" disabled={load.state === 'loading'} onClick={() => void connect()}>
      {t`Connect Telegram`}
    </button>
  );
}

const DiscordIcon = () => (
  <span className="connection-icon connection-icon-discord" aria-hidden="true">
    <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor">
      <path d="M19.6 5.3A16.5 16.5 0 0 0 15.5 4l-.5 1a15.3 15.3 0 0 0-6 0l-.5-1a16.5 16.5 0 0 0-4.1 1.3C1.8 9.2 1.1 13 1.4 16.7a16.6 16.6 0 0 0 5 2.5l1.1-1.7a10.7 10.7 0 0 1-1.7-.8l.4-.3a11.8 11.8 0 0 0 10.1 0l.4.3-1.7.8 1.1 1.7a16.6 16.6 0 0 0 5-2.5c.4-4.3-.7-8-3.5-11.4ZM8.5 14.5c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2Zm7 0c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2Z" />
    </svg>
  </span>
);

const TelegramIcon = () => (
  <span className="connection-icon connection-icon-telegram" aria-hidden="true">
    <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor">
      <path d="M21.9 4.3 18.7 19.4c-.2 1-.9 1.3-1.7.8l-4.8-3.5-2.3 2.2c-.3.3-.5.5-1 .5l.3-4.9 8.9-8c.4-.3-.1-.5-.6-.2l-11 6.9L1.7 11.7c-1-.3-1-1 .2-1.5L20.6 3c.9-.3 1.6.2 1.3 1.3Z" />
    </svg>
  </span>
);

/** /dashboard/settings: the Discord and Telegram accounts connected to this user (docs/product.md#overview). */
export function ConnectionsPanel() {
  useLocale();
  const user = useSessionUser();
  const sessionChecked = useSessionStore((state) => state.sessionChecked);
  const account = user && !isGuestUser(user) ? user : null;
  const disconnectDiscord = useDisconnectDiscord();
  const disconnectTelegram = useDisconnectTelegram();

  const disconnect = async (provider: 'discord' | 'telegram'): Promise<boolean> => {
    const text = CONNECT_MESSAGES[provider];
    try {
      await (provider === 'discord' ? disconnectDiscord : disconnectTelegram).mutateAsync();
      toast.success(provider === 'discord' ? t`Discord account disconnected` : t`Telegram account disconnected`);
      return true;
    } catch {
      toast.error(text.disconnectFailed);
      return false;
    }
  };

  const telegram = account?.telegram;
  const telegramName = telegram ? [telegram.firstName, telegram.lastName].filter(Boolean).join(' ') : '';

  return (
    <section
      className="card settings-section connections-panel"
      aria-labelledby="connections-title"
      aria-busy={!sessionChecked || undefined}
    >
      <h2 id="connections-title">{t`Connected accounts`}</h2>
      <p className="muted">{t`Link your Discord and Telegram accounts to Olympus. Each account can be linked to one Olympus user.`}</p>
      {!account ? (
        <p className="muted">{sessionChecked ? t`Sign in to manage connected accounts.` : t`Loading your connections…`}</p>
      ) : (
        <ul className="connection-list" aria-label={t`Account connections`}>
          <ConnectionRow
            provider="Discord"
            icon={
              account.discord ? (
                <DiscordAvatar id={account.discord.id} avatar={account.discord.avatar} name={account.discord.username} />
              ) : (
                <DiscordIcon />
              )
            }
            account={
              account.discord ? <RichText message={t`Connected as <0>@${account.discord.username}</0>`} elements={[<strong />]} /> : null
            }
            connect={<DiscordConnectButton />}
            onDisconnect={() => disconnect('discord')}
            disconnecting={disconnectDiscord.isPending}
          />
          <ConnectionRow
            provider="Telegram"
            icon={<TelegramIcon />}
            account={
              telegram ? (
                <>
                  <RichText
                    message={t`Connected as <0>${telegram.username ? `@${telegram.username}` : telegramName || `#${telegram.id}`}</0>`}
                    elements={[<strong />]}
                  />
                  {telegram.username && telegramName ? ` (${telegramName})` : ''}
                </>
              ) : null
            }
            connect={<TelegramConnect />}
            onDisconnect={() => disconnect('telegram')}
            disconnecting={disconnectTelegram.isPending}
          />
        </ul>
      )}
    </section>
  );
}
