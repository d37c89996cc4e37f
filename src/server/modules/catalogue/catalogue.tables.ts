import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { OrderStatus } from '#shared/schemas/catalogue.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/** What credits buy (decision 0160): staff keep the list; hidden items (`active` false) are neither listed nor sold. */
export const catalogueItems = pgTable(
  'catalogue_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** Units left; null is unlimited. Never below zero (a purchase takes one under the row lock). */
    stock: integer('stock'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('catalogue_items_active_name_idx').on(t.active, t.name),
    check('catalogue_items_price_positive', sql`${t.priceCents} > 0`),
    check('catalogue_items_stock_non_negative', sql`${t.stock} IS NULL OR ${t.stock} >= 0`),
  ],
);
export type CatalogueItemRow = typeof catalogueItems.$inferSelect;

/**
 * A purchase: one `spend` ledger entry (`order:<id>`) paid it; a refund adds one `refund` entry
 * (`order-refund:<id>`). The id is chosen before the ledger entry so the entry can name it. One order
 * per (user, idempotency key): a repeated purchase answers the first order.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogueItems.id, { onDelete: 'restrict' }),
    itemName: text('item_name').notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('paid'),
    idempotencyKey: text('idempotency_key').notNull(),
    ledgerEntryId: uuid('ledger_entry_id')
      .notNull()
      .references(() => creditLedgerEntries.id, { onDelete: 'restrict' }),
    refundLedgerEntryId: uuid('refund_ledger_entry_id').references(() => creditLedgerEntries.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('orders_ledger_entry_key').on(t.ledgerEntryId),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    check('orders_status', sql`${t.status} IN ('paid', 'fulfilled', 'refunded')`),
    check('orders_price_positive', sql`${t.priceCents} > 0`),
    check('orders_refund_entry', sql`(${t.status} = 'refunded') = (${t.refundLedgerEntryId} IS NOT NULL)`),
  ],
);
export type OrderRow = typeof orders.$inferSelect;
