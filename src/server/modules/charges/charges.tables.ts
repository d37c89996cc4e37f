import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ChargeStatus } from '#shared/schemas/charges.js';
import { apiKeys } from '#server/modules/api-keys/api-keys.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * A charge made through the charge API (docs/decisions/0165). One row per (API key, Idempotency-Key):
 * the unique index is what makes a retried or parallel request charge once; `request_hash` tells a
 * retry (same body) from a reuse of the key (another body, 409).
 */
export const charges = pgTable(
  'charges',
  {
    id: uuid('id').primaryKey(),
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'restrict' }),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    status: text('status').$type<ChargeStatus>().notNull().default('succeeded'),
    ledgerEntryId: uuid('ledger_entry_id').references(() => creditLedgerEntries.id, { onDelete: 'restrict' }),
    refundLedgerEntryId: uuid('refund_ledger_entry_id').references(() => creditLedgerEntries.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('charges_api_key_idempotency_key').on(t.apiKeyId, t.idempotencyKey),
    index('charges_user_created_idx').on(t.userId, t.createdAt),
    check('charges_amount_positive', sql`${t.amountCents} > 0`),
    check('charges_status_known', sql`${t.status} in ('succeeded', 'refunded')`),
  ],
);

export type ChargeRow = typeof charges.$inferSelect;
