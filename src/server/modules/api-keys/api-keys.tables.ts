import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/**
 * Keys the operator's own services use to call the charge API (docs/decisions/0165). Only the SHA-256
 * of a key is kept; `prefix` is its first characters, shown to tell keys apart.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull().default(120),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), check('api_keys_rate_limit_positive', sql`${t.rateLimitPerMinute} > 0`)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
