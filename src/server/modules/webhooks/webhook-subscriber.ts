import type { WebhookEvent } from '#shared/schemas/webhooks.js';
import type { DomainEvent, Subscriber } from '#server/events/domain-events.js';
import type { WebhookEvents } from './webhook-events.js';

type Outgoing = { userId: string; event: WebhookEvent; payload: Record<string, unknown> };

const done = (status: string) => status === 'finished' || status === 'completed';

/**
 * The webhook event (docs/product.md#webhooks) a domain event becomes, or null when it sends none: the
 * payloads are the public contract of our webhooks, kept here in one place.
 */
export function webhookOf(event: DomainEvent): Outgoing | null {
  switch (event.type) {
    case 'credits.changed':
      return {
        userId: event.userId,
        event: 'credits.changed',
        payload: {
          entryId: event.entry.id,
          kind: event.entry.kind,
          amountCents: event.entry.amountCents,
          balanceCents: event.balanceCents,
          reference: event.entry.reference,
          description: event.entry.description,
          createdAt: event.entry.createdAt.toISOString(),
        },
      };
    case 'payment.changed':
      if (!done(event.to) || done(event.from)) return null;
      return {
        userId: event.userId,
        event: 'payment.finished',
        payload: {
          paymentId: event.payment.id,
          status: event.to,
          priceAmountCents: event.payment.priceAmountCents,
          creditedCents: event.creditedCents,
          payCurrency: event.payment.payCurrency,
        },
      };
    case 'exchange.finished':
      if (!event.owner || !('userId' in event.owner)) return null;
      return {
        userId: event.owner.userId,
        event: 'exchange.finished',
        payload: {
          exchangeId: event.exchange.id,
          fromCurrency: event.exchange.fromCurrency,
          toCurrency: event.exchange.toCurrency,
          amountFrom: event.exchange.amountFrom,
          amountReceived: event.exchange.amountReceived,
          earnedRewardCents: event.earnedRewardCents,
        },
      };
    case 'order.changed':
      return { userId: event.userId, event: `order.${event.status}`, payload: event.order };
    case 'ticket.answered':
      if (!event.ticket.userId) return null;
      return {
        userId: event.ticket.userId,
        event: 'ticket.answered',
        payload: { ticketId: event.ticket.id, number: event.ticket.number, subject: event.ticket.subject, status: event.status },
      };
    default:
      return null;
  }
}

/** The webhooks module's subscription: each event a user's webhook may want is queued for delivery. */
export function webhookSubscriber(webhookEvents: WebhookEvents): Subscriber {
  return {
    channel: 'webhook',
    types: ['credits.changed', 'payment.changed', 'exchange.finished', 'order.changed', 'ticket.answered'],
    async handle(tx, event) {
      const out = webhookOf(event);
      if (out) await webhookEvents.enqueue(tx, out.userId, out.event, out.payload);
    },
    async handleMany(tx, events) {
      await webhookEvents.enqueueMany(
        tx,
        events.map(webhookOf).filter((o): o is Outgoing => o !== null),
      );
    },
  };
}
