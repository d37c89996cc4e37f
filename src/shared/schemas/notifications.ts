import { z } from 'zod';
import { uuidField } from './common.js';

/**
 * Notifications (docs/product.md#notifications): the events that make one, the channels they go to,
 * the in-app centre's shapes and the preferences matrix.
 */
export const NOTIFICATION_EVENTS = [
  'payment.detected',
  'payment.confirming',
  'payment.credited',
  'payment.partially_paid',
  'payment.expired',
  'exchange.finished',
  'reward.claimed',
  /** Someone joined with my referral link; I earned a referral reward (held until it is spendable). */
  'referral.joined',
  'referral.reward_earned',
  'ticket.reply',
  'ticket.sla_breached',
  /** A ticket closed automatically after it stayed resolved: please rate the answer (docs/decisions/0294). */
  'ticket.rating_request',
  'order.fulfilled',
  'order.refunded',
  'charge.succeeded',
  'charge.refunded',
  'webhook.disabled',
  'balance.low',
  'security.sign_in',
  'security.password_changed',
  'security.email_changed',
  'security.two_factor_changed',
  /** A closing account was restored (docs/decisions/0304). */
  'security.account_restored',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_CHANNELS = ['email', 'in_app', 'telegram', 'discord'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What settings call each event. */
export const NOTIFICATION_EVENT_LABELS: Record<NotificationEvent, string> = {
  'payment.detected': 'Payment detected',
  'payment.confirming': 'Payment confirming',
  'payment.credited': 'Payment credited',
  'payment.partially_paid': 'Payment partially paid',
  'payment.expired': 'Payment expired',
  'exchange.finished': 'Exchange finished, reward ready',
  'reward.claimed': 'Reward claimed',
  'referral.joined': 'Someone joined with my link',
  'referral.reward_earned': 'Referral reward earned',
  'ticket.reply': 'Support replied to a ticket',
  'ticket.sla_breached': 'A ticket passed its SLA target (staff)',
  'ticket.rating_request': 'Rate a closed ticket',
  'order.fulfilled': 'Order fulfilled',
  'order.refunded': 'Order refunded',
  'charge.succeeded': 'Charge through the API',
  'charge.refunded': 'Charge refunded',
  'webhook.disabled': 'Webhook endpoint turned off',
  'balance.low': 'Balance below my threshold',
  'security.sign_in': 'New sign-in',
  'security.password_changed': 'Password changed',
  'security.email_changed': 'Email address changed',
  'security.two_factor_changed': 'Two-factor authentication changed',
  'security.account_restored': 'Closing account restored',
};

export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = {
  email: 'Email',
  in_app: 'In-app',
  telegram: 'Telegram',
  discord: 'Discord',
};

/**
 * Events only staff (support and admin) can get: the preferences matrix lists them for staff accounts
 * only (docs/decisions/0293).
 */
export const STAFF_NOTIFICATION_EVENTS: readonly NotificationEvent[] = ['ticket.sla_breached'];
/** The events an account of this role sees in its preferences matrix. */
export function notificationEventsFor(role: string): readonly NotificationEvent[] {
  return role === 'support' || role === 'admin'
    ? NOTIFICATION_EVENTS
    : NOTIFICATION_EVENTS.filter((e) => !STAFF_NOTIFICATION_EVENTS.includes(e));
}

/** Security events always reach email and the in-app centre; only the chat channels can be chosen for them. */
export const isSecurityEvent = (event: NotificationEvent): boolean => event.startsWith('security.');

/** The cells nobody can turn off. */
export function isLockedCell(event: NotificationEvent, channel: NotificationChannel): boolean {
  if (isSecurityEvent(event)) return channel === 'email' || channel === 'in_app';
  // A turned-off webhook is an account notice that was always mailed (decision 0180).
  return event === 'webhook.disabled' && channel === 'email';
}

/**
 * What an account gets before it chooses: everything in the app except the in-between payment steps;
 * mail where the product always sent one; the chat apps for what someone waits for.
 */
const QUIET: NotificationEvent[] = ['payment.detected', 'payment.confirming'];
const MAILED: NotificationEvent[] = [
  'payment.credited',
  'ticket.reply',
  'ticket.rating_request',
  'order.fulfilled',
  'order.refunded',
  'webhook.disabled',
  'balance.low',
];
export function defaultPreference(event: NotificationEvent, channel: NotificationChannel): boolean {
  if (isLockedCell(event, channel)) return true;
  if (QUIET.includes(event)) return false;
  if (channel === 'in_app') return true;
  if (channel === 'email') return MAILED.includes(event);
  return true;
}

export const notificationSchema = z.object({
  id: z.string(),
  event: z.enum(NOTIFICATION_EVENTS),
  title: z.string(),
  body: z.string(),
  /** A path inside the app (starts with "/"). */
  link: z.string(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `cursor` is the `nextCursor` of the previous page (opaque). */
export const notificationListQuerySchema = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuerySchema>;

export const notificationListResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponseSchema>;

export const markNotificationsReadBodySchema = z.union([
  z.object({ ids: z.array(uuidField('Invalid notification id')).min(1, 'Choose at least one notification').max(100) }),
  z.object({ all: z.literal(true) }),
]);
export type MarkNotificationsReadBody = z.infer<typeof markNotificationsReadBodySchema>;
export const markNotificationsReadResponseSchema = z.object({ updated: z.number().int(), unreadCount: z.number().int() });

export const notificationStreamQuerySchema = z.object({
  /** Seconds before the server ends the stream (the client then connects again); default 300. */
  timeout: z.coerce.number().int().min(0).max(300).optional(),
});

const cellSchema = z.object({ enabled: z.boolean(), locked: z.boolean() });
export const channelStateSchema = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS),
  /** False for a chat app the account has not connected. */
  connected: z.boolean(),
  /** Set when the platform refused and the channel was turned off for this account. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
});
export type ChannelState = z.infer<typeof channelStateSchema>;

export const notificationPreferencesSchema = z.object({
  matrix: z.array(z.object({ event: z.enum(NOTIFICATION_EVENTS), channels: z.record(z.enum(NOTIFICATION_CHANNELS), cellSchema) })),
  channels: z.array(channelStateSchema),
  /** balance.low fires when the balance falls below this many cents; null: never. */
  lowBalanceThresholdCents: z.number().int().nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const updateNotificationPreferencesBodySchema = z.object({
  changes: z
    .array(z.object({ event: z.enum(NOTIFICATION_EVENTS), channel: z.enum(NOTIFICATION_CHANNELS), enabled: z.boolean() }))
    .max(NOTIFICATION_EVENTS.length * NOTIFICATION_CHANNELS.length)
    .optional(),
  /** Turns a chat channel that was turned off after a refusal back on. */
  resumeChannels: z
    .array(z.enum(['telegram', 'discord']))
    .max(2)
    .optional(),
  lowBalanceThresholdCents: z.number().int().min(0).max(100_000_000).nullable().optional(),
});
export type UpdateNotificationPreferencesBody = z.infer<typeof updateNotificationPreferencesBodySchema>;
