import type { DbOrTx } from '#server/db/client.js';
import { findChatAccountId } from '#server/modules/connections/connections.service.js';
import {
  ChatDeliveryRetryableError,
  type ChatChannel,
  type ChatDeliveryResult,
  type ChatNotice,
} from '#server/modules/notifications/chat-channel.js';
import { holdFor, sleep, waitFor } from './chat-rate.js';
import { discordContent } from './chat-text.js';
import { MAX_WAIT_MS } from './telegram.channel.js';

const TIMEOUT_MS = 10_000;
/** Discord's error for a DM the user does not accept (no shared server, DMs closed, bot blocked). */
export const DISCORD_CANNOT_MESSAGE_USER = 50007;
/** The same when the bot and the user share no server. */
export const DISCORD_NO_MUTUAL_GUILDS = 50278;

export interface DiscordChannelOptions {
  db: DbOrTx;
  botToken: string;
  /** Discord's API (https://discord.com/api) or this server's sandbox. */
  apiBase: () => string;
}

interface DiscordAnswer {
  id?: string;
  code?: number;
  message?: string;
  retry_after?: number;
  global?: boolean;
}

const GLOBAL_KEY = 'discord:global';

/**
 * Discord notifications: a direct message from the product's bot (open the DM channel with
 * `POST /users/@me/channels`, then `POST /channels/{id}/messages`), markdown escaped and mentions
 * suppressed (decision 0265). Rate limits as Discord tells them: a bucket whose `X-RateLimit-Remaining`
 * reached 0 waits `X-RateLimit-Reset-After`, and a 429 holds the bucket (or every request, when global)
 * for its `retry_after`, shared by every instance (decision 0266).
 */
export class DiscordChannel implements ChatChannel {
  readonly name = 'discord' as const;

  constructor(private readonly options: DiscordChannelOptions) {}

  async deliver(userId: string, notice: ChatNotice): Promise<ChatDeliveryResult> {
    const discordId = await findChatAccountId(this.options.db, userId, 'discord');
    if (!discordId) return { outcome: 'not-connected' };
    const content = discordContent(notice.title, notice.body, notice.link);

    const channel = await this.request('discord:dm-open', 'POST', '/users/@me/channels', { recipient_id: discordId });
    if ('refused' in channel) return { outcome: 'refused', reason: channel.refused };
    const channelId = channel.answer.id;
    if (typeof channelId !== 'string' || !/^\d{1,20}$/.test(channelId))
      throw new ChatDeliveryRetryableError('Discord did not open a DM channel', null);

    const sent = await this.request(`discord:messages:${channelId}`, 'POST', `/channels/${channelId}/messages`, {
      content,
      allowed_mentions: { parse: [] },
    });
    if ('refused' in sent) return { outcome: 'refused', reason: sent.refused };
    return { outcome: 'sent' };
  }

  /** One call in a rate-limit bucket; answers the body, a refusal, or throws a retryable error. */
  private async request(
    bucket: string,
    method: string,
    path: string,
    body: unknown,
  ): Promise<{ answer: DiscordAnswer } | { refused: string }> {
    const { db } = this.options;
    const wait = Math.max(await waitFor(db, GLOBAL_KEY), await waitFor(db, bucket));
    if (wait > MAX_WAIT_MS) throw new ChatDeliveryRetryableError('Discord: rate limited', wait);
    if (wait > 0) await sleep(wait);

    let res: Response;
    let answer: DiscordAnswer;
    try {
      res = await fetch(`${this.options.apiBase()}${path}`, {
        method,
        headers: { authorization: `Bot ${this.options.botToken}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      answer = (await res.json().catch(() => ({}))) as DiscordAnswer;
    } catch {
      throw new ChatDeliveryRetryableError('Discord could not be reached', null);
    }

    // The bucket is spent: the next call in it waits until Discord resets it.
    if (res.headers.get('x-ratelimit-remaining') === '0') {
      const resetAfter = Number(res.headers.get('x-ratelimit-reset-after'));
      if (Number.isFinite(resetAfter) && resetAfter > 0) await holdFor(db, bucket, Math.ceil(resetAfter * 1000));
    }
    if (res.ok) return { answer };

    const message = typeof answer.message === 'string' ? answer.message.slice(0, 200) : `HTTP ${res.status}`;
    if (res.status === 429) {
      const seconds = Number(answer.retry_after ?? res.headers.get('retry-after'));
      const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : null;
      const global = answer.global === true || res.headers.get('x-ratelimit-global') === 'true';
      if (retryAfterMs) await holdFor(db, global ? GLOBAL_KEY : bucket, retryAfterMs);
      throw new ChatDeliveryRetryableError(`Discord: ${message}`, retryAfterMs);
    }
    if (res.status >= 500) throw new ChatDeliveryRetryableError(`Discord: ${message}`, null);
    if (res.status === 403 && (answer.code === DISCORD_CANNOT_MESSAGE_USER || answer.code === DISCORD_NO_MUTUAL_GUILDS))
      return { refused: message };
    // 401 (the operator's bot token is wrong), other 4xx: a fault on our side, retried by the queue.
    throw new ChatDeliveryRetryableError(`Discord refused the request: ${message}`, null);
  }
}
