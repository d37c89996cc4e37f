import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The NOWPayments sandbox keeps its imitation payments in the database, like the real provider keeps
 * them on its side: every app instance sees the same payments and they survive a restart.
 */
export const sandboxNowpaymentsPayments = pgTable('sandbox_nowpayments_payments', {
  paymentId: text('payment_id').primaryKey(),
  ipnCallbackUrl: text('ipn_callback_url'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
