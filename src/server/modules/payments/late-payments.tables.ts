import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * Payments that finished after their account was erased (or while its erasure was under way), waiting
 * for staff to send the money back to the sender (docs/decisions/0305). The credits the payment bought
 * were written off by a `forfeit` entry when it finished; `written_off_cents` is that figure. One row per
 * payment; `refunded_at` is set when an admin records the refund as sent
 * (`refunded_by` names them) or the provider reports the payment refunded (`refunded_by` null).
 */
export const latePaymentRefunds = pgTable(
  'late_payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    writtenOffCents: bigint('written_off_cents', { mode: 'number' }).notNull(),
    priceAmountCents: bigint('price_amount_cents', { mode: 'number' }).notNull(),
    payCurrency: text('pay_currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundedBy: uuid('refunded_by').references(() => users.id, { onDelete: 'restrict' }),
    refundNote: text('refund_note'),
  },
  (t) => [
    uniqueIndex('late_payment_refunds_payment_key').on(t.paymentId),
    index('late_payment_refunds_open_idx')
      .on(t.createdAt)
      .where(sql`${t.refundedAt} IS NULL`),
    check('late_payment_refunds_written_off_positive', sql`${t.writtenOffCents} >= 0`),
  ],
);

export type LatePaymentRefundRow = typeof latePaymentRefunds.$inferSelect;
