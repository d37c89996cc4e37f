import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/**
 * The in-app centre: one row per event for its recipient (an account, or a guest by guestId). The
 * unique `event_key` makes an event produce its notice once, however often the change is replayed.
 * Kept 90 days (the prune job). A trigger (migration 0024) notifies `olympus_invalidate` with
 * `n:<userId>` or `n:g<guestId>` on every change, so every instance's open streams hear it.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestId: text('guest_id'),
    event: text('event').notNull(),
    eventKey: text('event_key').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A path inside the app. */
    link: text('link').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex('notifications_event_key').on(t.eventKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_guest_created_idx').on(t.guestId, t.createdAt, t.id),
    index('notifications_created_idx').on(t.createdAt),
    check('notifications_recipient', sql`${t.userId} IS NOT NULL OR ${t.guestId} IS NOT NULL`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'skipped' | 'refused' | 'failed';

/**
 * One notice to one chat channel. The primary key (event key, channel) is the at-most-once key: the
 * row is written once, in the transaction of the change, and a worker sends only after moving it from
 * `pending` to `sending` in one statement, so two instances or a repeated job never send it twice.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    eventKey: text('event_key').notNull(),
    channel: text('channel').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    notice: jsonb('notice').$type<{ title: string; body: string; link: string }>().notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.eventKey, t.channel] }),
    index('notification_deliveries_created_idx').on(t.createdAt),
    check('notification_deliveries_status', sql`${t.status} IN ('pending', 'sending', 'sent', 'skipped', 'refused', 'failed')`),
  ],
);
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;

/** The cells of the matrix an account changed from the default (no row: the default). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.event, t.channel] })],
);

/** Per account: the low-balance threshold. */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lowBalanceThresholdCents: bigint('low_balance_threshold_cents', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A chat channel turned off for one account because the platform refused (the bot was blocked). */
export const notificationChannelStates = pgTable(
  'notification_channel_states',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    disabledReason: text('disabled_reason').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
);
