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
    check('credit_ledger_entries_kind_known', sql`${t.kind} in ('payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement', 'forfeit')`),
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
    index('credit_debts_outstanding_idx').on(t.userId).where(sql`${t.outstandingCents} > 0`),
    check('credit_debts_amount_positive', sql`${t.amountCents} > 0`),
    check('credit_debts_outstanding_within_amount', sql`${t.outstandingCents} >= 0 AND ${t.outstandingCents} <= ${t.amountCents}`),
  ],
);

export type CreditDebtRow = typeof creditDebts.$inferSelect;
