import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { LEDGER_ENTRY_KINDS } from '#shared/schemas/credits.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/** What a ledger entry is for; the reference prefix follows it (`payment:<id>`, `reward:<exchangeId>`...). */
export type LedgerKind = (typeof LEDGER_ENTRY_KINDS)[number];

/**
 * The credits ledger (docs/product.md#credits). Rows are immutable: a trigger refuses UPDATE and DELETE
 * (migration `ledger_immutable`). The unique reference makes every posting idempotent.
 */
export const creditLedgerEntries = pgTable(
  'credit_ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'number' }).notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    reference: text('reference').notNull(),
    description: text('description').notNull(),
    /** Who caused the entry when it was a person (staff adjustments); null for the system. */
    actorId: uuid('actor_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_entries_reference_key').on(t.reference),
    index('credit_ledger_entries_user_created_idx').on(t.userId, t.createdAt),
    check('credit_ledger_entries_amount_nonzero', sql`${t.amountCents} <> 0`),
    check('credit_ledger_entries_balance_non_negative', sql`${t.balanceAfterCents} >= 0`),
    check(
      'credit_ledger_entries_kind_known',
      sql`${t.kind} in ('payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement', 'forfeit', 'referral_reward', 'welcome_bonus', 'referral_clawback')`,
    ),
  ],
);

export type LedgerEntryRow = typeof creditLedgerEntries.$inferSelect;

/** Why an account owes credits: its money went back to the sender after it was credited. */
export type DebtReason = 'refunded' | 'chargeback';

/**
 * What a reversal (a refund or chargeback of a credited payment) could not take back because the
 * credits were already spent (docs/decisions/0120). Later credits settle it first, oldest first, with
 * `settlement` ledger entries; `outstanding_cents` falls to zero and `settled_at` is set.
 */
export const creditDebts = pgTable(
  'credit_debts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Unique: one debt per reversal (`payment:<id>:refunded`). */
    reference: text('reference').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    reason: text('reason').$type<DebtReason>().notNull(),
    /** What could not be taken back when the reversal happened. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** What is still owed. */
    outstandingCents: bigint('outstanding_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('credit_debts_reference_key').on(t.reference),
    index('credit_debts_user_created_idx').on(t.userId, t.createdAt),
    index('credit_debts_outstanding_idx')
      .on(t.userId)
      .where(sql`${t.outstandingCents} > 0`),
    check('credit_debts_amount_positive', sql`${t.amountCents} > 0`),
    check('credit_debts_outstanding_within_amount', sql`${t.outstandingCents} >= 0 AND ${t.outstandingCents} <= ${t.amountCents}`),
  ],
);

export type CreditDebtRow = typeof creditDebts.$inferSelect;

export type AdjustmentRequestStatus = 'pending' | 'approved' | 'rejected';

/**
 * Balance adjustments waiting for a second admin (four eyes, docs/security.md#staff-powers): one of
 * ADJUSTMENT_APPROVAL_CENTS or more is stored here instead of posted; an approval by another admin posts
 * it (`ledger_entry_id`), a rejection closes it. Both admins are named here and in the audit log.
 */
export const creditAdjustmentRequests = pgTable(
  'credit_adjustment_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    customerNote: text('customer_note'),
    idempotencyKey: text('idempotency_key'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').$type<AdjustmentRequestStatus>().notNull().default('pending'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'restrict' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    ledgerEntryId: uuid('ledger_entry_id').references(() => creditLedgerEntries.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('credit_adjustment_requests_idempotency_key').on(t.idempotencyKey),
    index('credit_adjustment_requests_status_idx').on(t.status, t.requestedAt),
    index('credit_adjustment_requests_user_idx').on(t.userId, t.requestedAt),
    check('credit_adjustment_requests_amount_nonzero', sql`${t.amountCents} <> 0`),
    check('credit_adjustment_requests_status_known', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('credit_adjustment_requests_decided', sql`(${t.status} = 'pending') = (${t.decidedBy} is null)`),
  ],
);

export type AdjustmentRequestRow = typeof creditAdjustmentRequests.$inferSelect;
