import type { Subscriber } from '#server/events/domain-events.js';
import { translatorFor } from '#server/i18n/translator.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
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
        const inEnglish = noticeOf(event);
        if (!inEnglish) return;
        // Written in the recipient's language (docs/decisions/0328); a guest has none and reads English.
        const tr = translatorFor('userId' in inEnglish.to ? await findUserLocale(tx, inEnglish.to.userId) : null);
        await notifications.emit(tx, tr.locale === 'en' ? inEnglish : noticeOf(event, tr)!);
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
