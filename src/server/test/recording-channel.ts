import {
  ChatDeliveryRetryableError,
  type ChatChannel,
  type ChatChannelName,
  type ChatDeliveryResult,
  type ChatNotice,
} from '#server/modules/notifications/chat-channel.js';

/**
 * A chat channel for tests (the Telegram and Discord clients live in their own files): it records every
 * notice it was asked to deliver and can be told to refuse, to fail with a retry-after, or to wait.
 */
export class RecordingChannel implements ChatChannel {
  readonly deliveries: Array<{ userId: string; notice: ChatNotice; at: number }> = [];
  /**
   * Answers of the next calls, in order (then 'sent'). An answer naming a `userId` is given only to a
   * delivery for that user, so a leftover delivery of an earlier test cannot take it.
   */
  readonly script: Array<(ChatDeliveryResult | { retryAfterMs: number | null }) & { userId?: string }> = [];
  /** Every call waits this long first (a slow platform). */
  delayMs = 0;

  constructor(readonly name: ChatChannelName) {}

  async deliver(userId: string, notice: ChatNotice): Promise<ChatDeliveryResult> {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.deliveries.push({ userId, notice, at: Date.now() });
    const index = this.script.findIndex((item) => item.userId === undefined || item.userId === userId);
    const next = index === -1 ? undefined : this.script.splice(index, 1)[0];
    if (next && 'retryAfterMs' in next) throw new ChatDeliveryRetryableError('429 Too Many Requests', next.retryAfterMs);
    return next ?? { outcome: 'sent' };
  }

  for(userId: string) {
    return this.deliveries.filter((d) => d.userId === userId);
  }
}
