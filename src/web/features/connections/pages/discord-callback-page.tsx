import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { connectDiscord } from '../api/connect-discord';
import { exchangeDiscordCode } from '../api/exchange-discord-code';
import { ConnectionCallbackView } from '../components/connection-callback-view';
import { useConnectionCallback, type CallbackOutcome } from '../components/use-connection-callback';
import { CONNECT_MESSAGES, connectErrorMessage } from '../lib/connect-messages';
import { setSessionConnection } from '../lib/session-connections';

const text = CONNECT_MESSAGES.discord;

/** Discord sends the browser here with `code` and `state` (or `error` when the person cancelled). */
async function completeDiscordConnection(code: string | null, state: string | null): Promise<CallbackOutcome> {
  if (!code) return { ok: false, message: text.noCode };
  let identity;
  try {
    identity = await exchangeDiscordCode(code, state);
  } catch (err) {
    return { ok: false, message: connectErrorMessage(err, 'Error', text.connectFailed) };
  }
  if (!identity || typeof identity.id !== 'string' || !identity.id) return { ok: false, message: text.invalidResponse };
  try {
    const discord = await connectDiscord({ id: identity.id, username: identity.username ?? '', avatar: identity.avatar ?? null });
    setSessionConnection('discord', discord);
  } catch (err) {
    return { ok: false, message: connectErrorMessage(err, 'Error', text.connectFailed) };
  }
  toast.success(text.connected);
  return { ok: true };
}

export default function DiscordCallbackPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const phase = useConnectionCallback(`discord:${code ?? ''}:${state ?? ''}`, () => completeDiscordConnection(code, state));
  return <ConnectionCallbackView phase={phase} connectingTitle={text.connecting} />;
}
