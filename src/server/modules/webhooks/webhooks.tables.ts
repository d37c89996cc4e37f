import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus, WebhookEvent } from '#shared/schemas/webhooks.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * A user's webhook (design.md section 10): one per user. The signing secret is stored encrypted
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
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_user_created_idx').on(t.userId, t.createdAt),
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
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);
