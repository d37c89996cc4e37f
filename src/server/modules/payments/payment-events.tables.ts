import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.tables.js';

/**
 * What the provider told us about a payment and what we did with it: every IPN and manual check, and
 * every reconciliation that changed something. Staff read it as the payment's IPN history.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    providerStatus: text('provider_status').notNull(),
    statusBefore: text('status_before').notNull(),
    statusAfter: text('status_after').notNull(),
    creditedCents: bigint('credited_cents', { mode: 'number' }).notNull().default(0),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_events_payment_idx').on(t.paymentId, t.createdAt)],
);

export type PaymentEventRow = typeof paymentEvents.$inferSelect;
