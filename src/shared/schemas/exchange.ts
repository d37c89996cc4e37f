import { z } from 'zod';
import { EXCHANGE_STATUSES } from '#shared/exchange-statuses.js';
import { pageShape, paginationQuerySchema, tickerSchema } from './common.js';

/**
 * The exchange (instant crypto-to-crypto swap) and its guest rewards: docs/product.md#exchange and the
 * shapes of docs/product.md#browser-state (guest rewards status, claim result, exchange response on saving a claim).
 */

export { EXCHANGE_STATUSES, FINAL_EXCHANGE_STATUSES, type ExchangeStatus } from '#shared/exchange-statuses.js';
export const exchangeStatusSchema = z.enum(EXCHANGE_STATUSES);

/** Ticker as the swap provider spells it (the shared ticker rule). */
export { tickerSchema };

/** A crypto amount (a JSON number): positive, at most 8 decimals (satoshi precision). */
export const cryptoAmountSchema = z
  .number({ error: 'Enter an amount' })
  .refine((v) => Number.isFinite(v) && v > 0, 'Enter an amount greater than zero')
  .refine((v) => v < 1e12, 'That amount is too large')
  .refine((v) => Math.abs(v * 1e8 - Math.round(v * 1e8)) < 1e-4, 'Use at most 8 decimals');

export const exchangeCurrencySchema = z
  .object({
    ticker: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    /** Payouts in this currency may need a memo / destination tag (XRP, XLM...). */
    hasExternalId: z.boolean(),
    /** What the memo is called for this currency ("Destination tag", "Memo"), when it has one. */
    externalIdName: z.string().nullable(),
    network: z.string().nullable(),
  })
  .meta({ id: 'ExchangeCurrency' });
export type ExchangeCurrency = z.infer<typeof exchangeCurrencySchema>;

export const exchangeCurrenciesResponseSchema = z.object({ currencies: z.array(exchangeCurrencySchema) });
export type ExchangeCurrenciesResponse = z.infer<typeof exchangeCurrenciesResponseSchema>;

/**
 * `floating`: the provider's live rate when the coins arrive (may change); `fixed`: a quote (rateId)
 * the provider honours until it expires.
 */
export const RATE_TYPES = ['floating', 'fixed'] as const;
export const rateTypeSchema = z.enum(RATE_TYPES, { error: 'Choose a floating or a fixed rate' });
export type RateType = z.infer<typeof rateTypeSchema>;

export const estimateQuerySchema = z.object({
  from: tickerSchema,
  to: tickerSchema,
  /** A query string is text: the amount arrives as a decimal string. */
  amount: z.coerce.number({ error: 'Enter an amount' }).pipe(cryptoAmountSchema),
  rateType: rateTypeSchema.default('floating'),
});
export type EstimateQuery = z.infer<typeof estimateQuerySchema>;

export const rewardPreviewSchema = z.object({
  /** The configured reward rate, in percent of the exchange's USD value. */
  percent: z.number(),
  /** Reward credits the exchange will earn when it finishes (1 credit = 1 USD). */
  amount: z.number(),
});

export const estimateResponseSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    amount: z.number(),
    /** What the payout address receives, as the provider estimates it now (a floating rate). */
    estimatedAmount: z.string(),
    minAmount: z.string(),
    /** The pair's largest amount, from the provider; null when it sets none. */
    maxAmount: z.string().nullable(),
    rateType: rateTypeSchema,
    /** Fixed rate: the quote to create the exchange with, and until when the provider honours it. */
    rateId: z.string().nullable(),
    validUntil: z.string().nullable(),
    /** The USD value of `amount`, which the reward is computed from. */
    usdValue: z.number(),
    reward: rewardPreviewSchema,
    transactionSpeedForecast: z.string().nullable(),
    warningMessage: z.string().nullable(),
  })
  .meta({ id: 'ExchangeEstimate' });
export type EstimateResponse = z.infer<typeof estimateResponseSchema>;

export const exchangeRangeQuerySchema = z.object({
  from: tickerSchema,
  to: tickerSchema,
  rateType: rateTypeSchema.default('floating'),
});
export type ExchangeRangeQuery = z.infer<typeof exchangeRangeQuerySchema>;

/** A pair's limits as the provider sets them, shown before an amount is typed. */
export const exchangeRangeResponseSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    rateType: rateTypeSchema,
    minAmount: z.string(),
    /** null: the provider sets no maximum for this pair. */
    maxAmount: z.string().nullable(),
  })
  .meta({ id: 'ExchangeRange' });
export type ExchangeRangeResponse = z.infer<typeof exchangeRangeResponseSchema>;

export const createExchangeBodySchema = z.object({
  from: tickerSchema,
  to: tickerSchema,
  amount: cryptoAmountSchema,
  payoutAddress: z
    .string({ error: 'Enter your payout address' })
    .trim()
    .min(1, 'Enter your payout address')
    .max(200, 'That address is too long'),
  /** Memo / destination tag for currencies that use one. */
  payoutExtraId: z.string().trim().max(100, 'That memo is too long').optional(),
  /** Where the provider returns the coins if the swap cannot be made (in the `from` currency). */
  refundAddress: z.string().trim().max(200, 'That address is too long').optional(),
  /** The refund address's memo / destination tag, for currencies that use one. */
  refundExtraId: z.string().trim().max(100, 'That memo is too long').optional(),
  /** Absent: floating. `fixed` needs the `rateId` of a fixed-rate estimate that has not expired. */
  rateType: rateTypeSchema.optional(),
  rateId: z.string().trim().max(2000, 'Unknown fixed rate').optional(),
});
export type CreateExchangeBody = z.infer<typeof createExchangeBodySchema>;

export const exchangeSchema = z
  .object({
    _id: z.string(),
    providerExchangeId: z.string(),
    status: exchangeStatusSchema,
    from: z.string(),
    to: z.string(),
    amount: z.string(),
    expectedAmount: z.string().nullable(),
    amountSent: z.string().nullable(),
    amountReceived: z.string().nullable(),
    payinAddress: z.string(),
    payinExtraId: z.string().nullable(),
    payoutAddress: z.string(),
    payoutExtraId: z.string().nullable(),
    refundAddress: z.string().nullable(),
    refundExtraId: z.string().nullable(),
    /** The rate the exchange was made at, and for a fixed rate its quote and its expiry. */
    rateType: rateTypeSchema,
    rateId: z.string().nullable(),
    rateValidUntil: z.string().nullable(),
    payinHash: z.string().nullable(),
    payoutHash: z.string().nullable(),
    usdValue: z.number(),
    /** Reward credits this exchange earns when it finishes (what it earned, once finished). */
    rewardAmount: z.number(),
    /** `direct`: credited to the account that made it; `claim`: a guest redeems it with the claim code. */
    rewardMode: z.enum(['direct', 'claim']),
    rewardCredited: z.boolean(),
    claimDeadline: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'Exchange' });
export type Exchange = z.infer<typeof exchangeSchema>;

/** `data.rewards` of the create answer; a guest's also carries the claim code, shown this once. */
export const exchangeRewardsSchema = z.object({
  potentialAmount: z.number(),
  percent: z.number(),
  mode: z.enum(['direct', 'claim']),
  claimCode: z.string().optional(),
  claimDeadline: z.string().optional(),
});
export type ExchangeRewards = z.infer<typeof exchangeRewardsSchema>;

export const createExchangeResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.object({ exchange: exchangeSchema, rewards: exchangeRewardsSchema }),
  })
  .meta({ id: 'CreateExchangeResponse' });
export type CreateExchangeResponse = z.infer<typeof createExchangeResponseSchema>;

export const exchangeResponseSchema = z.object({ exchange: exchangeSchema });
export type ExchangeResponse = z.infer<typeof exchangeResponseSchema>;

export const myExchangesQuerySchema = paginationQuerySchema;
export type MyExchangesQuery = z.infer<typeof myExchangesQuerySchema>;

export const myExchangesResponseSchema = z.object({ exchanges: z.array(exchangeSchema), ...pageShape });
export type MyExchangesResponse = z.infer<typeof myExchangesResponseSchema>;

// ---- Guest reward claims (docs/product.md#browser-state, #states, #api) ---------------------------------------------------

/** One claim as the browser keeps it and sends it back. Loose on purpose: local storage may hold junk. */
export const rewardClaimInputSchema = z.object({
  exchangeId: z.string().max(100),
  claimCode: z.string().max(200),
  /** Ignored by the server (it knows each claim's reward); null when the browser stored junk. */
  potentialRewards: z.number().nullable().optional(),
});
export type RewardClaimInput = z.infer<typeof rewardClaimInputSchema>;

export const MAX_CLAIMS_PER_CALL = 100;

export const guestRewardsStatusBodySchema = z.object({
  claims: z.array(rewardClaimInputSchema).max(MAX_CLAIMS_PER_CALL),
});
export type GuestRewardsStatusBody = z.infer<typeof guestRewardsStatusBodySchema>;

export const guestRewardsStatusResponseSchema = z
  .object({
    success: z.boolean(),
    data: z.object({
      /** Reward credits of the valid claims, as the server knows them (not as the browser sent them). */
      totalPotentialRewards: z.number(),
      claims: z.array(z.object({ exchangeId: z.string(), valid: z.boolean() })),
    }),
  })
  .meta({ id: 'GuestRewardsStatusResponse' });
export type GuestRewardsStatusResponse = z.infer<typeof guestRewardsStatusResponseSchema>;

export const claimGuestRewardsBodySchema = z.object({
  claims: z.array(rewardClaimInputSchema).max(MAX_CLAIMS_PER_CALL),
  userId: z.string().max(100),
});
export type ClaimGuestRewardsBody = z.infer<typeof claimGuestRewardsBodySchema>;

export const claimGuestRewardsResponseSchema = z
  .object({
    success: z.boolean(),
    data: z.object({
      totalCredited: z.number(),
      results: z.array(z.object({ exchangeId: z.string(), claimed: z.boolean() })),
    }),
  })
  .meta({ id: 'ClaimGuestRewardsResponse' });
export type ClaimGuestRewardsResponse = z.infer<typeof claimGuestRewardsResponseSchema>;
