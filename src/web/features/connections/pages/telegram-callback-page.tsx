import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { connectTelegram } from '../api/connect-telegram';
import { verifyTelegram } from '../api/verify-telegram';
import { ConnectionCallbackView } from '../components/connection-callback-view';
import { useConnectionCallback, type CallbackOutcome } from '../components/use-connection-callback';
import { CONNECT_MESSAGES, connectErrorMessage } from '../lib/connect-messages';
import { setSessionConnection } from '../lib/session-connections';
import { TELEGRAM_CALLBACK_FIELDS, type TelegramCallbackData } from '../lib/telegram-callback-data';

const text = CONNECT_MESSAGES.telegram;

/** Only the fields that arrived: the hash covers exactly those, so none may be added or blanked. */
function readCallbackData(params: URLSearchParams): TelegramCallbackData {
  const data: TelegramCallbackData = {};
  for (const field of TELEGRAM_CALLBACK_FIELDS) {
    const value = params.get(field);
    if (value !== null) data[field] = value;
  }
  return data;
}

async function completeTelegramConnection(data: TelegramCallbackData): Promise<CallbackOutcome> {
  if (!data.id) return { ok: false, message: text.missingData };
  let verification;
  try {
    verification = await verifyTelegram(data);
  } catch (err) {
    return { ok: false, message: connectErrorMessage(err, 'Server error', text.connectFailed) };
  }
  if (verification?.verified !== true) return { ok: false, message: text.notVerified };
  try {
    setSessionConnection('telegram', await connectTelegram(data));
  } catch (err) {
    return { ok: false, message: connectErrorMessage(err, 'Server error', text.connectFailed) };
  }
  toast.success(text.connected);
  return { ok: true };
}

export default function TelegramCallbackPage() {
  const [params] = useSearchParams();
  const phase = useConnectionCallback(`telegram:${params.toString()}`, () => completeTelegramConnection(readCallbackData(params)));
  return <ConnectionCallbackView phase={phase} connectingTitle={text.connecting} />;
}
