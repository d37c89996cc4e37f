import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export interface DiscordIdentity {
  id: string;
  username: string;
  avatar: string | null;
  connectedAt: string;
}
export interface TelegramIdentity {
  id: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  connectedAt: string;
}

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('user'),
    subroles: jsonb('subroles').$type<string[]>().notNull().default([]),
    /** Balance in cents. Written only by the credits ledger, in the same transaction as its entry. */
    creditsCents: bigint('credits_cents', { mode: 'number' }).notNull().default(0),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    referralCode: text('referral_code').notNull(),
    referredBy: uuid('referred_by'),
    discord: jsonb('discord').$type<DiscordIdentity>(),
    telegram: jsonb('telegram').$type<TelegramIdentity>(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** When the current address was confirmed through a link sent to it; null: not verified. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * Raised by every change that must void the account's outstanding one-time links: password reset or
     * change, confirmed change of address, disabling, staff reset of two-factor (decision 0200).
     */
    securityStamp: integer('security_stamp').notNull().default(0),
    /** When the owner asked to close the account (decision 0255); null: open (or restored). */
    closingAt: timestamp('closing_at', { withTimezone: true }),
    /** When the erasure job erases a closing account (14 days after `closingAt`, or at once by an admin). */
    erasureAt: timestamp('erasure_at', { withTimezone: true }),
    /** Set by the erasure's last step: the row is `deleted-<id>` now, kept for the financial records. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    /**
     * A payment finished while the account was closing (decision 0305): the erasure waits (it does not
     * run while this is set) until the person gives a new acknowledgement by restoring and closing again,
     * or an admin erases the account at their request. Null: nothing waits.
     */
    closureHeldAt: timestamp('closure_held_at', { withTimezone: true }),
    /** The chat connections closing removed (`discord`, `telegram`), so a restore can say which to connect again. */
    /** The language the person chose (decision 0326): one of LOCALES; null until they choose. */
    locale: text('locale'),
    closureRemovedConnections: jsonb('closure_removed_connections').$type<('discord' | 'telegram')[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    uniqueIndex('users_discord_id_key').on(sql`(${t.discord}->>'id')`),
    uniqueIndex('users_telegram_id_key').on(sql`(${t.telegram}->>'id')`),
    // The staff's user search (a part of a name or an email) and list, newest first (migration 0042).
    index('users_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('users_erasure_due_idx')
      .on(t.erasureAt)
      .where(sql`${t.erasureAt} IS NOT NULL AND ${t.erasedAt} IS NULL`),
    check('users_credits_non_negative', sql`${t.creditsCents} >= 0`),
    check('users_role_known', sql`${t.role} in ('user', 'support', 'admin')`),
    check('users_locale_known', sql`${t.locale} in ('en', 'es', 'ru', 'de')`),
  ],
);

export type UserRow = typeof users.$inferSelect;
