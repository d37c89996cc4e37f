import type { Subscriber } from '#server/events/domain-events.js';
import { noticeOf } from './notices.js';
import type { NotificationsService } from './notifications.service.js';

/** The notifications module's subscriptions: the notice of each event, and the low-balance alert. */
export function noticeSubscribers(notifications: NotificationsService): Subscriber[] {
  return [
    {
      channel: 'notice',
      types: [
        'payment.changed',
        'exchange.finished',
        'reward.claimed',
        'order.changed',
        'charge.changed',
        'ticket.answered',
        'webhook.disabled',
        'security.changed',
      ],
      async handle(tx, event) {
        const notice = noticeOf(event);
        if (notice) await notifications.emit(tx, notice);
      },
    },
    {
      // balance.low: every balance change, whether or not anybody has a webhook.
      channel: 'balance alert',
      types: ['credits.changed'],
      async handle(tx, event) {
        if (event.type !== 'credits.changed') return;
        await notifications.onBalanceChanged(tx, event.userId, event.entry.id, event.entry.amountCents, event.balanceCents);
      },
    },
  ];
}
