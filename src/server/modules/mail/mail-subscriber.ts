import type { DomainEvent, PaymentChanged, Subscriber } from '#server/events/domain-events.js';
import type { MailService } from './mail.service.js';
import {
  notifyOrderUpdate,
  notifyPaymentCredited,
  notifyPaymentsCredited,
  notifyTicketReply,
  notifyWebhookDisabled,
} from './notifications.js';

const done = (status: string) => status === 'finished' || status === 'completed';

/** A payment that is told by mail: credited now, to an account that still has somebody to tell. */
const creditedMail = (e: PaymentChanged) =>
  done(e.to) && !done(e.from) && !e.refundQueued
    ? {
        userId: e.userId,
        paymentId: e.payment.id,
        priceAmountCents: e.payment.priceAmountCents,
        feeCents: e.payment.feeCents,
        creditedCents: e.creditedCents,
        payCurrency: e.payment.payCurrency,
      }
    : null;

/**
 * The mail module's subscription: the events that have a mail of their own (a payment credited, an
 * order's change, an answer on a ticket, a webhook turned off), each checked against the person's mail
 * preferences by the functions in notifications.ts.
 */
export function mailSubscriber(mail: MailService): Subscriber {
  const one = async (tx: Parameters<Subscriber['handle']>[0], event: DomainEvent) => {
    switch (event.type) {
      case 'payment.changed': {
        const input = creditedMail(event);
        if (input) await notifyPaymentCredited(mail, tx, input);
        return;
      }
      case 'order.changed':
        if (event.status !== 'paid' && event.status !== 'fulfilled' && event.status !== 'refunded') return;
        await notifyOrderUpdate(mail, tx, {
          userId: event.userId,
          event: event.status,
          orderId: event.order.orderId,
          itemName: event.itemName,
          amountCents: event.amountCents,
          ledgerReference: event.ledgerReference,
        });
        return;
      case 'ticket.answered':
        if (!event.ticket.userId) return;
        await notifyTicketReply(mail, tx, {
          userId: event.ticket.userId,
          ticketId: event.ticket.id,
          number: event.ticket.number,
          subject: event.ticket.subject,
          message: event.message,
        });
        return;
      case 'webhook.disabled':
        await notifyWebhookDisabled(mail, tx, {
          userId: event.userId,
          url: event.url,
          failingSince: event.failingSince,
          lastError: event.lastError,
        });
        return;
      default:
        return;
    }
  };
  return {
    channel: 'mail',
    types: ['payment.changed', 'order.changed', 'ticket.answered', 'webhook.disabled'],
    handle: one,
    // The group commit of IPNs: one read of the users and one insert for every credited payment's mail.
    async handleMany(tx, events) {
      const credited = events.flatMap((e) => (e.type === 'payment.changed' ? [creditedMail(e)] : [])).filter((m) => m !== null);
      await notifyPaymentsCredited(mail, tx, credited);
      for (const e of events) if (e.type !== 'payment.changed') await one(tx, e);
    },
  };
}
