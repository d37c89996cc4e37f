import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ReferralRefusalReason, ReferralRewardState, ReferralSignals, ReferralStatus } from '#shared/schemas/referrals.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * One row per person who joined with someone's link (docs/product.md#referrals), made at registration.
 * `signals` are the self-referral checks, stored when the first top-up is final (null before).
 */
export const referrals = pgTable(
  'referrals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    referredId: uuid('referred_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').$type<ReferralStatus>().notNull().default('joined'),
    refusalReason: text('refusal_reason').$type<ReferralRefusalReason>(),
    refusalNote: text('refusal_note'),
    signals: jsonb('signals').$type<ReferralSignals>(),
    qualifiedAt: timestamp('qualified_at', { withTimezone: true }),
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
  },
  (t) => [
    uniqueIndex('referrals_referred_key').on(t.referredId),
    index('referrals_referrer_joined_idx').on(t.referrerId, t.joinedAt),
    index('referrals_joined_idx').on(t.joinedAt),
    check('referrals_status_known', sql`${t.status} in ('joined', 'qualified', 'rewarded', 'refused')`),
  ],
);
export type ReferralRow = typeof referrals.$inferSelect;

/** Who a reward row pays: the referrer's share of a top-up, or the referred person's welcome bonus. */
export type ReferralRewardKind = 'referrer_share' | 'welcome_bonus';

/**
 * What a referral earned from one final top-up. One row per (payment, kind) and one welcome bonus per
 * referral, both unique in the database: the exactly-once of rewards (docs/decisions/0332). A share is
 * `held` until `release_at`, then `paid` (on the ledger, `paid_entry_id`); a reversal makes it
 * `clawed_back` (`taken_back_cents` from the balance, `owed_cents` as a debt); staff may cancel a held one.
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referralId: uuid('referral_id')
      .notNull()
      .references(() => referrals.id, { onDelete: 'restrict' }),
    kind: text('kind').$type<ReferralRewardKind>().notNull(),
    beneficiaryId: uuid('beneficiary_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    /** The top-up's credited amount the share was taken of. */
    baseCents: bigint('base_cents', { mode: 'number' }).notNull(),
    /** The referrer's share it was taken at (null for a welcome bonus), for the ledger's description. */
    shareBasisPoints: integer('share_basis_points'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text('state').$type<ReferralRewardState>().notNull(),
    /** The UTC day it was earned: the referrer's daily cap counts by it. */
    earnedDay: date('earned_day', { mode: 'string' }).notNull(),
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    paidEntryId: uuid('paid_entry_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    takenBackCents: bigint('taken_back_cents', { mode: 'number' }).notNull().default(0),
    owedCents: bigint('owed_cents', { mode: 'number' }).notNull().default(0),
    /** When it was clawed back or cancelled. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_rewards_payment_kind_key').on(t.paymentId, t.kind),
    uniqueIndex('referral_rewards_one_welcome_key')
      .on(t.referralId)
      .where(sql`${t.kind} = 'welcome_bonus'`),
    index('referral_rewards_referral_idx').on(t.referralId),
    index('referral_rewards_beneficiary_day_idx').on(t.beneficiaryId, t.earnedDay),
    index('referral_rewards_held_idx')
      .on(t.releaseAt)
      .where(sql`${t.state} = 'held'`),
    check('referral_rewards_kind_known', sql`${t.kind} in ('referrer_share', 'welcome_bonus')`),
    check('referral_rewards_state_known', sql`${t.state} in ('held', 'paid', 'clawed_back', 'cancelled')`),
    check('referral_rewards_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
export type ReferralRewardRow = typeof referralRewards.$inferSelect;

/** The programme's settings, one row per change: the current ones are the newest row (defaults when none). */
export const referralSettings = pgTable(
  'referral_settings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shareBasisPoints: integer('share_basis_points').notNull(),
    rewardDays: integer('reward_days').notNull(),
    capPerReferredCents: bigint('cap_per_referred_cents', { mode: 'number' }).notNull(),
    holdDays: integer('hold_days').notNull(),
    dailyCapCents: bigint('daily_cap_cents', { mode: 'number' }).notNull(),
    lifetimeCapCents: bigint('lifetime_cap_cents', { mode: 'number' }).notNull(),
    welcomeBonusCents: bigint('welcome_bonus_cents', { mode: 'number' }).notNull(),
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('referral_settings_changed_idx').on(t.changedAt)],
);
export type ReferralSettingsRow = typeof referralSettings.$inferSelect;
