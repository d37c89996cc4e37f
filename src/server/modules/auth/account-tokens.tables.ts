import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

export type AccountTokenPurpose = 'verify_email' | 'reset_password' | 'change_email';

/** One-time links (verification, reset, address change): only a SHA-256 of the token is kept. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AccountTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to (for an address change: the new address). */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A newer link of the same purpose replaced this one. */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** The account's security stamp when the link was issued: the link works only while it is unchanged (decision 0200). */
    securityStamp: integer('security_stamp').notNull().default(0),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_key').on(t.tokenHash),
    index('account_tokens_user_purpose_idx').on(t.userId, t.purpose),
    check('account_tokens_purpose', sql`${t.purpose} IN ('verify_email', 'reset_password', 'change_email')`),
  ],
);
export type AccountTokenRow = typeof accountTokens.$inferSelect;
