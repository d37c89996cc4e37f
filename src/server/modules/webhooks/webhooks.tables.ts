import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookAttemptTrigger, WebhookDeliveryStatus, WebhookEvent } from '#shared/schemas/webhooks.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * A user's webhook (docs/product.md#webhooks): one per user. The signing secret is stored encrypted
 * (AES-256-GCM, key derived from the server secret); the hint shows its last characters only.
 */
export const webhooks = pgTable('webhooks', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  events: jsonb('events').$type<WebhookEvent[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  secretCiphertext: text('secret_ciphertext').notNull(),
  secretHint: text('secret_hint').notNull(),
  secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true }).notNull().defaultNow(),
  /** After a rotation the old secret keeps signing next to the new one until this time (24 hours). */
  previousSecretCiphertext: text('previous_secret_ciphertext'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  /** A secret made before Standard Webhooks signatures (base64url text); its bytes are still the key. */
  legacySecret: boolean('legacy_secret').notNull().default(false),
  /** The first failed attempt since the last success; five days of this disables the webhook. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Set when failures disabled the webhook (`enabled` is false then); cleared when the user turns it on again. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type WebhookRow = typeof webhooks.$inferSelect;

/**
 * One event to deliver to one user's webhook. Written in the same transaction as the change it reports
 * (with its pg-boss job), so a delivery exists exactly when the change committed. The payload is
 * frozen here: every attempt sends the same body.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    /** Every attempt, automatic or replayed by hand. */
    attempts: integer('attempts').notNull().default(0),
    /** Automatic attempts only: the position in the retry schedule. */
    autoAttempts: integer('auto_attempts').notNull().default(0),
    /** When the next automatic attempt is due (pending deliveries only). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    /** An attempt in progress holds the delivery until then, so no second worker or replay sends it at once. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_user_created_idx').on(t.userId, t.createdAt),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status', sql`${t.status} IN ('pending', 'succeeded', 'failed')`),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Every attempt of every delivery: when, where, what answered (the log behind the summary above). */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    /** automatic: the retry schedule; manual: a replay from the delivery log. */
    trigger: text('trigger').$type<WebhookAttemptTrigger>().notNull().default('automatic'),
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    /** The start of the receiver's answer (at most 1 KB, control characters removed). */
    responseExcerpt: text('response_excerpt'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt),
    check('webhook_delivery_attempts_trigger', sql`${t.trigger} IN ('automatic', 'manual')`),
  ],
);
export type WebhookAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
