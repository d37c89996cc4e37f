/**
 * A chat app that notifications can be sent to (Telegram, Discord). The notifications module owns
 * preferences, the queue and the at-most-once key; a channel only delivers one notice to one user.
 */
export type ChatChannelName = 'telegram' | 'discord';

export interface ChatNotice {
  /** The event's name, e.g. "payment.credited". */
  event: string;
  /** Plain text; the channel escapes it for its platform's formatting. */
  title: string;
  body: string;
  /** Absolute URL of the thing the notice concerns (the payment, the ticket, the order). */
  link: string;
  /** The words of the link where the platform shows them (Telegram), in the reader's language; English when absent. */
  linkLabel?: string;
}

export type ChatDeliveryResult =
  | { outcome: 'sent' }
  /** The user has no connection for this channel (nothing to do; not an error). */
  | { outcome: 'not-connected' }
  /** The platform refused for good (bot blocked, DMs closed): the channel must be turned off. */
  | { outcome: 'refused'; reason: string };

/** Thrown on 5xx, 429 or a network failure: the job retries, no sooner than `retryAfterMs`. */
export class ChatDeliveryRetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
    this.name = 'ChatDeliveryRetryableError';
  }
}

export interface ChatChannel {
  readonly name: ChatChannelName;
  /** Sends one notice to the user's connected account; rate-limited per chat as the platform requires. */
  deliver(userId: string, notice: ChatNotice): Promise<ChatDeliveryResult>;
}
