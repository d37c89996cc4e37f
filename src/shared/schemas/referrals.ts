import { z } from 'zod';
import { pageShape, paginationQuery } from './common.js';

/**
 * Referrals (docs/product.md#referrals): who joined with whose link, what the referrer earns from the
 * referred person's cleared top-ups, and the welcome bonus of the referred person. This file is the
 * contract of the server and the web; the rules and their defaults are in docs/product.md#referrals.
 */

/** Where a referral stands: joined (signed up), qualified (a top-up is final), rewarded (credits paid), refused. */
export const REFERRAL_STATUSES = ['joined', 'qualified', 'rewarded', 'refused'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

/**
 * Why a referral earns nothing. The self-referral signals are checked when the referred person's first
 * top-up clears; staff may refuse or reverse one with a note the referrer reads.
 */
export const REFERRAL_REFUSAL_REASONS = [
  'same_account',
  'same_email',
  'same_device',
  'same_address',
  'same_payout_address',
  'refused_by_staff',
  'reversed_by_staff',
] as const;
export type ReferralRefusalReason = (typeof REFERRAL_REFUSAL_REASONS)[number];

/** A reward's life: held (not yet spendable), paid (on the ledger), clawed back (its top-up was reversed), cancelled. */
export const REFERRAL_REWARD_STATES = ['held', 'paid', 'clawed_back', 'cancelled'] as const;
export type ReferralRewardState = (typeof REFERRAL_REWARD_STATES)[number];

/** The programme's settings, changed by admins in the staff console with their history kept. */
export const referralSettingsSchema = z
  .object({
    /** The referrer's share of each cleared top-up, in basis points (1000 = 10 %). */
    shareBasisPoints: z.number().int().min(0).max(5000),
    /** For how long after the referred person joined their top-ups earn the referrer a share. */
    rewardDays: z.number().int().min(1).max(3650),
    /** The most one referred person can earn their referrer, in cents. */
    capPerReferredCents: z.number().int().min(0),
    /** How long a reward is held before it can be spent. */
    holdDays: z.number().int().min(0).max(365),
    /** What a referrer can earn in one day (UTC) and in all, in cents. */
    dailyCapCents: z.number().int().min(0),
    lifetimeCapCents: z.number().int().min(0),
    /** The referred person's one-time bonus on their first cleared top-up, in cents. */
    welcomeBonusCents: z.number().int().min(0),
  })
  .meta({ id: 'ReferralSettings' });
export type ReferralSettings = z.infer<typeof referralSettingsSchema>;

/** The defaults a fresh install starts with (docs/product.md#referrals). */
export const DEFAULT_REFERRAL_SETTINGS: ReferralSettings = {
  shareBasisPoints: 1000,
  rewardDays: 90,
  capPerReferredCents: 50_00,
  holdDays: 14,
  dailyCapCents: 200_00,
  lifetimeCapCents: 5_000_00,
  welcomeBonusCents: 2_00,
};

// ---- Mine (GET /api/referrals, GET /api/referrals/summary) -----------------------------------------------

/** One person who joined with my link, as I see them: a masked name, never their email. */
export const referralSchema = z
  .object({
    _id: z.string(),
    /** `al•••e`: the first two letters and the last one of the username. */
    maskedName: z.string(),
    joinedAt: z.string(),
    status: z.enum(REFERRAL_STATUSES),
    refusalReason: z.enum(REFERRAL_REFUSAL_REASONS).nullable(),
    /** Staff's note when they refused or reversed it; shown to the referrer. */
    refusalNote: z.string().nullable(),
    /** Until when this person's top-ups earn me a share. */
    rewardsUntil: z.string(),
    heldCents: z.number().int(),
    paidCents: z.number().int(),
    clawedBackCents: z.number().int(),
  })
  .meta({ id: 'Referral' });
export type Referral = z.infer<typeof referralSchema>;

export const referralListQuerySchema = paginationQuery(20);
export const referralListResponseSchema = z.object({ referrals: z.array(referralSchema), ...pageShape });
export type ReferralListResponse = z.infer<typeof referralListResponseSchema>;

export const referralSummarySchema = z
  .object({
    code: z.string(),
    /** The path to share, `/register?ref=CODE`; the web puts its own origin before it. */
    linkPath: z.string(),
    joined: z.number().int(),
    qualified: z.number().int(),
    rewarded: z.number().int(),
    refused: z.number().int(),
    /** Earned but still held (not spendable yet). */
    heldCents: z.number().int(),
    /** On my balance. */
    paidCents: z.number().int(),
    clawedBackCents: z.number().int(),
    /** When the next held reward becomes spendable, if one is held. */
    nextReleaseAt: z.string().nullable(),
    settings: referralSettingsSchema,
  })
  .meta({ id: 'ReferralSummary' });
export type ReferralSummary = z.infer<typeof referralSummarySchema>;

// ---- Staff (/api/admin/referrals...) ---------------------------------------------------------------------

/** What staff read before trusting a referral: the signals two accounts share. */
export const referralSignalsSchema = z.object({
  sameEmail: z.boolean(),
  sameDevice: z.boolean(),
  sameAddress: z.boolean(),
  samePayoutAddress: z.boolean(),
});
export type ReferralSignals = z.infer<typeof referralSignalsSchema>;

export const adminReferralSchema = z
  .object({
    _id: z.string(),
    referrer: z.object({ userId: z.string(), username: z.string() }),
    referred: z.object({ userId: z.string(), username: z.string() }),
    joinedAt: z.string(),
    status: z.enum(REFERRAL_STATUSES),
    refusalReason: z.enum(REFERRAL_REFUSAL_REASONS).nullable(),
    refusalNote: z.string().nullable(),
    signals: referralSignalsSchema,
    heldCents: z.number().int(),
    paidCents: z.number().int(),
    clawedBackCents: z.number().int(),
  })
  .meta({ id: 'AdminReferral' });
export type AdminReferral = z.infer<typeof adminReferralSchema>;

export const adminReferralListQuerySchema = paginationQuery(20).extend({
  status: z.enum(REFERRAL_STATUSES).optional(),
  /** A username or email of the referrer or the referred person. */
  q: z.string().trim().max(200).optional(),
});
export const adminReferralListResponseSchema = z.object({ referrals: z.array(adminReferralSchema), ...pageShape });
export type AdminReferralListResponse = z.infer<typeof adminReferralListResponseSchema>;
export const adminReferralResponseSchema = z.object({ referral: adminReferralSchema });

/** Refuse (before any reward) or reverse (claw back what was paid): the note is shown to the referrer. */
export const referralDecisionBodySchema = z.object({
  note: z.string({ error: 'Say why' }).trim().min(3, 'Say why (at least 3 characters)').max(500, 'Keep it under 500 characters'),
});
export type ReferralDecisionBody = z.infer<typeof referralDecisionBodySchema>;

/** One ISO week of the programme (Monday, UTC). `GET /api/admin/referrals/report` and `.csv`. */
export const referralReportWeekSchema = z.object({
  weekStart: z.string(),
  referrers: z.number().int(),
  joined: z.number().int(),
  qualified: z.number().int(),
  refused: z.number().int(),
  paidCents: z.number().int(),
  clawedBackCents: z.number().int(),
  welcomeBonusCents: z.number().int(),
});
export type ReferralReportWeek = z.infer<typeof referralReportWeekSchema>;
export const referralReportQuerySchema = z.object({
  weeks: z.coerce.number().int().min(1).max(104).default(12),
});
export const referralReportResponseSchema = z.object({ weeks: z.array(referralReportWeekSchema) });
export type ReferralReportResponse = z.infer<typeof referralReportResponseSchema>;

export const referralSettingsChangeSchema = z.object({
  _id: z.string(),
  settings: referralSettingsSchema,
  changedBy: z.object({ userId: z.string(), username: z.string() }).nullable(),
  changedAt: z.string(),
});
export type ReferralSettingsChange = z.infer<typeof referralSettingsChangeSchema>;
export const referralSettingsResponseSchema = z.object({
  settings: referralSettingsSchema,
  history: z.array(referralSettingsChangeSchema),
});
export type ReferralSettingsResponse = z.infer<typeof referralSettingsResponseSchema>;
export const referralSettingsBodySchema = referralSettingsSchema;
