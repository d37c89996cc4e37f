import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The swap sandbox keeps its imitation exchanges in the database, as the real provider keeps them on
 * its side: every app instance sees the same exchanges and they survive a restart.
 */
export const sandboxSwapExchanges = pgTable('sandbox_swap_exchanges', {
  id: text('id').primaryKey(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
