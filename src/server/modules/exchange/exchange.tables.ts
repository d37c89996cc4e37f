import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ExchangeStatus, RateType } from '#shared/schemas/exchange.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * A swap through the swap provider, made by a user or by a guest (docs/product.md#exchange). The reward is
 * credited once: to the owner (`direct`) or to whoever redeems the guest's claim code (`claim`).
 */
export const exchanges = pgTable(
  'exchanges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    guestId: text('guest_id'),
    provider: text('provider').notNull().default('changenow'),
    providerExchangeId: text('provider_exchange_id').notNull(),
    status: text('status').$type<ExchangeStatus>().notNull().default('waiting'),
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    /** Crypto amounts are decimal strings: never floats in our storage. */
    amountFrom: text('amount_from').notNull(),
    expectedAmountTo: text('expected_amount_to'),
    amountSent: text('amount_sent'),
    amountReceived: text('amount_received'),
    payinAddress: text('payin_address').notNull(),
    payinExtraId: text('payin_extra_id'),
    payoutAddress: text('payout_address').notNull(),
    payoutExtraId: text('payout_extra_id'),
    /** Where the provider returns the coins if the swap fails (in the `from` currency), and its memo. */
    refundAddress: text('refund_address'),
    refundExtraId: text('refund_extra_id'),
    /** `fixed`: made with the provider's quote `rateId`, honoured until `rateValidUntil`. */
    rateType: text('rate_type').$type<RateType>().notNull().default('floating'),
    rateId: text('rate_id'),
    rateValidUntil: timestamp('rate_valid_until', { withTimezone: true }),
    payinHash: text('payin_hash'),
    payoutHash: text('payout_hash'),
    /** USD value of `amountFrom` when the exchange was made: the reward's base. */
    usdValueCents: bigint('usd_value_cents', { mode: 'number' }).notNull(),
    /** Reward announced at creation (the most the exchange can earn). */
    rewardCents: bigint('reward_cents', { mode: 'number' }).notNull(),
    /** Reward earned, fixed when the exchange finishes (less than announced if less was sent). */
    earnedRewardCents: bigint('earned_reward_cents', { mode: 'number' }),
    rewardMode: text('reward_mode').$type<'direct' | 'claim'>().notNull(),
    /** SHA-256 (hex) of the guest's claim code; the code itself is shown once and never stored. */
    claimCodeHash: text('claim_code_hash'),
    claimDeadline: timestamp('claim_deadline', { withTimezone: true }),
    /** Who the reward was credited to, and when (both modes). */
    rewardUserId: uuid('reward_user_id').references(() => users.id, { onDelete: 'restrict' }),
    rewardCreditedAt: timestamp('reward_credited_at', { withTimezone: true }),
    providerData: jsonb('provider_data').$type<Record<string, unknown>>(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('exchanges_provider_exchange_key').on(t.provider, t.providerExchangeId),
    index('exchanges_user_created_idx').on(t.userId, t.createdAt),
    index('exchanges_guest_created_idx').on(t.guestId, t.createdAt),
    index('exchanges_status_idx').on(t.status),
    // The staff's exchange list, newest first (migration 0042).
    index('exchanges_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('exchanges_owner_present', sql`${t.userId} IS NOT NULL OR ${t.guestId} IS NOT NULL`),
    check('exchanges_reward_mode_known', sql`${t.rewardMode} in ('direct', 'claim')`),
    check(
      'exchanges_claim_has_code',
      sql`${t.rewardMode} <> 'claim' OR (${t.claimCodeHash} IS NOT NULL AND ${t.claimDeadline} IS NOT NULL)`,
    ),
    check(
      'exchanges_rate_type_known',
      sql`${t.rateType} IN ('floating', 'fixed') AND (${t.rateType} = 'floating' OR ${t.rateId} IS NOT NULL)`,
    ),
    check('exchanges_reward_non_negative', sql`${t.rewardCents} >= 0 AND ${t.usdValueCents} >= 0`),
  ],
);

export type ExchangeRow = typeof exchanges.$inferSelect;
