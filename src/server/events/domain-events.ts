import type { OrderStatus } from '#shared/schemas/catalogue.js';
import type { Tx } from '#server/db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's domain-event bus (tests emit through it as services do). */
    events: DomainEvents;
  }
}

/**
 * What happened in the product that somebody may be told about, as the module where it happens reports
 * it. The module does not know who listens: webhooks, mail and notifications subscribe in their module
 * files, and docs/architecture.md#domain-events has the table of which event reaches which channel
 * (decision 0322). Facts only, in plain values: this file sits below every module and imports none.
 */
export type DomainEvent =
  | CreditsChanged
  | PaymentChanged
  | ExchangeFinished
  | RewardClaimed
  | OrderChanged
  | ChargeChanged
  | TicketAnswered
  | WebhookDisabled
  | SecurityChanged;

/** A ledger entry was posted: every change of a balance. */
export interface CreditsChanged {
  type: 'credits.changed';
  userId: string;
  entry: { id: string; kind: string; amountCents: number; reference: string; description: string; createdAt: Date };
  balanceCents: number;
}

/** A top-up's status or credited amount moved (NOWPayments statuses in `from` and `to`). */
export interface PaymentChanged {
  type: 'payment.changed';
  userId: string;
  payment: { id: string; priceAmountCents: number; feeCents: number; payCurrency: string };
  from: string;
  to: string;
  creditedCents: number;
  /** The account was erased and the money is queued back to its sender: nobody is told (decision 0305). */
  refundQueued: boolean;
}

/** A swap finished; its owner is an account or a guest. */
export interface ExchangeFinished {
  type: 'exchange.finished';
  owner: { userId: string } | { guestId: string } | null;
  exchange: { id: string; fromCurrency: string; toCurrency: string; amountFrom: string; amountReceived: string | null };
  earnedRewardCents: number | null;
  /** The reward waits for its claim code. */
  claimable: boolean;
  /** The reward was added to the balance in the same change. */
  rewardCredited: boolean;
}

/** A reward kept by a claim code was claimed into an account. */
export interface RewardClaimed {
  type: 'reward.claimed';
  userId: string;
  exchange: { id: string; fromCurrency: string; amountFrom: string };
  cents: number;
}

/** A shop order was paid, fulfilled or refunded. */
export interface OrderChanged {
  type: 'order.changed';
  userId: string;
  status: OrderStatus;
  /** The order as the API shows it, with `orderId`: the webhook's payload. */
  order: Record<string, unknown> & { orderId: string };
  itemName: string;
  amountCents: number;
  ledgerReference: string;
  /** The entry whose receipt tells this change (the refund's entry for a refund). */
  receiptEntryId: string;
}

/** An API charge took credits, or was refunded. */
export interface ChargeChanged {
  type: 'charge.changed';
  userId: string;
  refunded: boolean;
  charge: { id: string; amountCents: number; description: string; ledgerEntryId: string };
}

/** The desk (a person or the automation) answered a ticket visibly. */
export interface TicketAnswered {
  type: 'ticket.answered';
  ticket: { id: string; number: number; subject: string; userId: string | null; guestId: string | null };
  messageId: string;
  message: string;
  /** The ticket's status after the answer. */
  status: string;
}

/** A user's webhook was turned off after days of failures. */
export interface WebhookDisabled {
  type: 'webhook.disabled';
  userId: string;
  url: string;
  failingSince: Date;
  disabledAt: Date;
  lastError: string | null;
}

/** What changed in an account's sign-in security (decision 0140): each a security notice, always sent. */
export type TwoFactorNoticeKind = 'enabled' | 'disabled' | 'disabled_by_admin' | 'recovery_code_used' | 'passkey_added';

/** A two-factor change and its facts (recovery codes left, the passkey's name), as data until written in a language. */
export interface TwoFactorChange {
  kind: TwoFactorNoticeKind;
  codesLeft?: number;
  passkeyName?: string;
}

/**
 * Something changed in how an account is entered (a new device signed in, the password, the address
 * or two-factor changed, a closing account restored). Its mail has its own template and is sent by the
 * module where it happens; the notice comes from here.
 */
export interface SecurityChanged {
  type: 'security.changed';
  userId: string;
  change: 'sign_in' | 'password_changed' | 'email_changed' | 'two_factor_changed' | 'account_restored';
  /** The address the change came from. */
  ip?: string;
  /** A short description of the browser ("Chrome on Linux"), for a sign-in. */
  browser?: string;
  /** The new address, for an address change. */
  email?: string;
  /** What changed in two-factor, written in the reader's language by the notice ("passkey added (Passkey: Laptop)"). */
  twoFactor?: TwoFactorChange;
}

export type DomainEventType = DomainEvent['type'];

/** How a subscriber is named in logs and in the channel table. */
export type Channel = 'webhook' | 'mail' | 'notice' | 'balance alert' | 'referrals';

export interface Subscriber {
  channel: Channel;
  /** The events it hears; others never reach it. */
  types: readonly DomainEventType[];
  /** Runs inside the emitter's transaction. It must not fail the caller: it catches what it can lose. */
  handle(tx: Tx, event: DomainEvent): Promise<void>;
  /** The same for a batch (the group commit of IPNs), in one pass where that saves round trips. */
  handleMany?(tx: Tx, events: DomainEvent[]): Promise<void>;
}

/**
 * The one way a module reports an event: `events.emit(tx, event)` inside the transaction of the change.
 * Every subscriber runs there too, and queues its delivery (a webhook delivery, a mail, a notice) on the
 * same transaction, so an event is told if and only if its change commits. Subscribers run in the
 * order they subscribed.
 */
export class DomainEvents {
  private readonly subscribers: Subscriber[] = [];

  subscribe(subscriber: Subscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Which channels hear `type`, in order (the channel table's test reads it). */
  channelsOf(type: DomainEventType): Channel[] {
    return this.subscribers.filter((s) => s.types.includes(type)).map((s) => s.channel);
  }

  async emit(tx: Tx, event: DomainEvent): Promise<void> {
    for (const s of this.subscribers) if (s.types.includes(event.type)) await s.handle(tx, event);
  }

  /** emit() for many events of one transaction, each subscriber given its events in their order. */
  async emitMany(tx: Tx, events: DomainEvent[]): Promise<void> {
    for (const s of this.subscribers) {
      const mine = events.filter((e) => s.types.includes(e.type));
      if (mine.length === 0) continue;
      if (s.handleMany) await s.handleMany(tx, mine);
      else for (const e of mine) await s.handle(tx, e);
    }
  }
}
