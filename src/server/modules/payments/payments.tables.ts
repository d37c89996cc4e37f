import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PaymentStatus } from '#shared/schemas/payments.js';
import { users } from '#server/modules/users/users.tables.js';

/** A crypto top-up. `id` is also the `order_id` sent to NOWPayments. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull().default('nowpayments'),
    providerPaymentId: text('provider_payment_id'),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    priceAmountCents: bigint('price_amount_cents', { mode: 'number' }).notNull(),
    priceCurrency: text('price_currency').notNull().default('usd'),
    payCurrency: text('pay_currency').notNull(),
    /** Crypto amounts are decimal strings as the provider sent them: never floats. */
    payAmount: text('pay_amount'),
    payAddress: text('pay_address'),
    payinExtraId: text('payin_extra_id'),
    network: text('network'),
    feePercent: integer('fee_percent').notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    /** Credits due when the payment finishes in full. */
    creditsCents: bigint('credits_cents', { mode: 'number' }).notNull(),
    /** Credits actually posted to the ledger for this payment so far. */
    creditedCents: bigint('credited_cents', { mode: 'number' }).notNull().default(0),
    actuallyPaid: text('actually_paid'),
    txHash: text('tx_hash'),
    parentPaymentId: text('parent_payment_id'),
    providerData: jsonb('provider_data').$type<Record<string, unknown>>(),
    failureReason: text('failure_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_key').on(t.provider, t.providerPaymentId),
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    index('payments_status_idx').on(t.status),
    // The staff's payment list, newest first (migration 0042).
    index('payments_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('payments_price_positive', sql`${t.priceAmountCents} > 0`),
    check('payments_credited_within_due', sql`${t.creditedCents} >= 0 AND ${t.creditedCents} <= ${t.creditsCents}`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
