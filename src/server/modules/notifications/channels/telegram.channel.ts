import type { DbOrTx } from '#server/db/client.js';
import { findChatAccountId } from '#server/modules/connections/connections.service.js';
import {
  ChatDeliveryRetryableError,
  type ChatChannel,
  type ChatDeliveryResult,
  type ChatNotice,
} from '#server/modules/notifications/chat-channel.js';
import { holdFor, reserveSlot, sleep } from './chat-rate.js';
import { telegramText } from './chat-text.js';

/** Telegram asks bots to send no more than about one message per second to one chat. */
export const TELEGRAM_CHAT_SPACING_MS = 1_000;
/** Waiting longer than this for a chat's turn gives the job back to the queue instead of holding it. */
export const MAX_WAIT_MS = 10_000;
const TIMEOUT_MS = 10_000;

export interface TelegramChannelOptions {
  db: DbOrTx;
  botToken: string;
  /** Telegram's Bot API (https://api.telegram.org) or this server's sandbox. */
  apiBase: () => string;
}

/** What the Bot API answers: `{ ok, result }` or `{ ok: false, error_code, description, parameters }`. */
interface BotApiAnswer {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/**
 * Telegram notifications: `sendMessage` from the product's bot to the private chat of the connected
 * account (its id is the user's Telegram id), in HTML parse mode with the text escaped (decision 0265),
 * one message per second per chat across every instance (decision 0266).
 */
export class TelegramChannel implements ChatChannel {
  readonly name = 'telegram' as const;

  constructor(private readonly options: TelegramChannelOptions) {}

  async deliver(userId: string, notice: ChatNotice): Promise<ChatDeliveryResult> {
    const { db } = this.options;
    const chatId = await findChatAccountId(db, userId, 'telegram');
    if (!chatId) return { outcome: 'not-connected' };
    const message = telegramText(notice.title, notice.body, notice.link, notice.linkLabel);
    const slotKey = `telegram:${chatId}`;

    const wait = await reserveSlot(db, slotKey, TELEGRAM_CHAT_SPACING_MS);
    if (wait > MAX_WAIT_MS) throw new ChatDeliveryRetryableError('Telegram: this chat has many messages waiting', wait);
    if (wait > 0) await sleep(wait);

    let res: Response;
    let answer: BotApiAnswer;
    try {
      // The token is part of the URL: neither the URL nor the fetch error is ever put in a message or a log.
      res = await fetch(`${this.options.apiBase()}/bot${this.options.botToken}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ chat_id: chatId, ...message, link_preview_options: { is_disabled: true } }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      answer = (await res.json().catch(() => ({}))) as BotApiAnswer;
    } catch {
      throw new ChatDeliveryRetryableError('Telegram could not be reached', null);
    }
    if (res.ok && answer.ok === true) return { outcome: 'sent' };

    const description = typeof answer.description === 'string' ? answer.description.slice(0, 200) : `HTTP ${res.status}`;
    if (res.status === 429) {
      const seconds = Number(answer.parameters?.retry_after ?? res.headers.get('retry-after'));
      const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : null;
      if (retryAfterMs) await holdFor(db, slotKey, retryAfterMs);
      throw new ChatDeliveryRetryableError(`Telegram: ${description}`, retryAfterMs);
    }
    if (res.status >= 500) throw new ChatDeliveryRetryableError(`Telegram: ${description}`, null);
    // 403: the user blocked the bot (or never let it write); 400 "chat not found": the chat is gone.
    if (res.status === 403 || (res.status === 400 && /chat not found|user is deactivated/i.test(description))) {
      return { outcome: 'refused', reason: description };
    }
    // 401 (the operator's token is wrong) or a request Telegram could not read: a fault on our side, retried.
    throw new ChatDeliveryRetryableError(`Telegram refused the request: ${description}`, null);
  }
}
