import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { NotificationChannel, NotificationEvent } from '#shared/schemas/notifications';

/**
 * What settings call each event and channel, in the language on screen (decision 0326): the English is
 * that of NOTIFICATION_EVENT_LABELS and NOTIFICATION_CHANNEL_LABELS in the shared schema, which the
 * server's messages use. Rendered with `i18n._(label)`.
 */
export const EVENT_LABELS: Record<NotificationEvent, MessageDescriptor> = {
  'payment.detected': msg`Payment detected`,
  'payment.confirming': msg`Payment confirming`,
  'payment.credited': msg`Payment credited`,
  'payment.partially_paid': msg`Payment partially paid`,
  'payment.expired': msg`Payment expired`,
  'exchange.finished': msg`Exchange finished, reward ready`,
  'reward.claimed': msg`Reward claimed`,
  'referral.joined': msg`Someone joined with my link`,
  'referral.reward_earned': msg`Referral reward earned`,
  'ticket.reply': msg`Support replied to a ticket`,
  'ticket.sla_breached': msg`A ticket passed its SLA target (staff)`,
  'ticket.rating_request': msg`Rate a closed ticket`,
  'order.fulfilled': msg`Order fulfilled`,
  'order.refunded': msg`Order refunded`,
  'charge.succeeded': msg`Charge through the API`,
  'charge.refunded': msg`Charge refunded`,
  'webhook.disabled': msg`Webhook endpoint turned off`,
  'balance.low': msg`Balance below my threshold`,
  'security.sign_in': msg`New sign-in`,
  'security.password_changed': msg`Password changed`,
  'security.email_changed': msg`Email address changed`,
  'security.two_factor_changed': msg`Two-factor authentication changed`,
  'security.account_restored': msg`Closing account restored`,
};

export const CHANNEL_LABELS: Record<NotificationChannel, MessageDescriptor> = {
  email: msg`Email`,
  in_app: msg`In-app`,
  telegram: msg`Telegram`,
  discord: msg`Discord`,
};
