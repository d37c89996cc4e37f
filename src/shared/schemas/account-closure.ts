import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '#shared/constants.js';
import { authResponseSchema } from './auth.js';
import { TWO_FACTOR_METHODS, STEP_UP_FIELDS } from './two-factor.js';

/** Closing an account and restoring it within its 14 days (decision 0255, docs/product.md#closing-an-account). */

const passwordField = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH);

/** What the closing dialog shows before anyone confirms: what will be forfeited and what is still open. */
export const closureSummarySchema = z
  .object({
    balanceCents: z.number().int(),
    pendingOrders: z.array(z.object({ _id: z.string(), itemName: z.string(), priceCents: z.number().int(), createdAt: z.string() })),
    /**
     * Ad campaigns that have not ended (decision 0304): closing pauses them, and what their budgets still
     * hold (`reserveCents`, rounded up as a refund would be) is forfeited with the balance at erasure.
     */
    campaigns: z.array(
      z.object({ _id: z.string(), name: z.string(), status: z.enum(['active', 'paused']), reserveCents: z.number().int() }),
    ),
    /** The sum of the campaigns' `reserveCents`. */
    campaignReserveCents: z.number().int(),
    erasureDelayDays: z.number().int(),
    twoFactorRequired: z.boolean(),
  })
  .meta({ id: 'AccountClosureSummary' });
export type ClosureSummary = z.infer<typeof closureSummarySchema>;

/**
 * DELETE /api/users/me. `acknowledgeForfeitedCents` is the balance the dialog showed; when the balance is
 * different now the closure is refused (409 BALANCE_CHANGED), so nobody forfeits credits they did not see.
 * `acknowledgeCampaignReserveCents` is the campaigns' reserve it showed (0 when left out): a reserve
 * larger now is refused the same way (`details.campaignReserveCents`); a smaller one (delivery went on
 * while the dialog was open) is not, since less is forfeited than was shown.
 */
export const closeAccountBodySchema = z.object({
  password: passwordField,
  acknowledgeForfeitedCents: z
    .number({ error: 'Confirm the balance you forfeit' })
    .int('Whole cents only')
    .min(0)
    .max(Number.MAX_SAFE_INTEGER),
  acknowledgeCampaignReserveCents: z
    .number({ error: 'Confirm the campaign budgets you forfeit' })
    .int('Whole cents only')
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0),
  ...STEP_UP_FIELDS,
});
export type CloseAccountBody = z.infer<typeof closeAccountBodySchema>;

export const closeAccountResponseSchema = z.object({ erasureAt: z.string() });
export type CloseAccountResponse = z.infer<typeof closeAccountResponseSchema>;

/**
 * What a sign-in to a closing account answers (403 ACCOUNT_CLOSING) in `details`: when it will be
 * erased, and the second-factor methods restoring it will ask for (empty: none).
 */
export const accountClosingDetailsSchema = z.object({ erasureAt: z.string(), methods: z.array(z.enum(TWO_FACTOR_METHODS)) });
export type AccountClosingDetails = z.infer<typeof accountClosingDetailsSchema>;

/** POST /api/auth/restore-account: the credentials, and a code when the authenticator app is on. */
export const restoreAccountBodySchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254),
  password: passwordField,
  twoFactorCode: STEP_UP_FIELDS.twoFactorCode,
  rememberMe: z.boolean().default(false),
});
export type RestoreAccountBody = z.infer<typeof restoreAccountBodySchema>;

/**
 * What a restore brought back, and what the person has to do again themselves (decision 0304): the
 * balance, the ad campaigns closing paused (they stay paused until resumed), whether the webhook works
 * again, the chat connections closing removed (not restored: connect them again).
 */
export const restoredAccountSchema = z
  .object({
    balanceCents: z.number().int(),
    pausedCampaigns: z.array(z.object({ _id: z.string(), name: z.string(), reserveCents: z.number().int() })),
    webhook: z.boolean(),
    reconnect: z.array(z.enum(['discord', 'telegram'])),
  })
  .meta({ id: 'RestoredAccount' });
export type RestoredAccount = z.infer<typeof restoredAccountSchema>;
export const restoreAccountResponseSchema = authResponseSchema.extend({ restored: restoredAccountSchema });
export type RestoreAccountResponse = z.infer<typeof restoreAccountResponseSchema>;

/** A closing account as the staff console lists it. */
export const pendingClosureSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  balanceCents: z.number().int(),
  closingAt: z.string(),
  erasureAt: z.string(),
  /** A payment finished while closing: the erasure waits for the person's new decision (decision 0305). */
  heldSince: z.string().nullable(),
});
/** A payment that finished after its account's erasure, waiting for staff to send the money back (decision 0305). */
export const latePaymentRefundSchema = z.object({
  _id: z.string(),
  paymentId: z.string(),
  userId: z.string(),
  writtenOffCents: z.number().int(),
  priceAmountCents: z.number().int(),
  payCurrency: z.string(),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
  refundNote: z.string().nullable(),
});
export type LatePaymentRefund = z.infer<typeof latePaymentRefundSchema>;
export const pendingClosuresResponseSchema = z.object({
  closures: z.array(pendingClosureSchema),
  latePayments: z.array(latePaymentRefundSchema),
});
export type PendingClosure = z.infer<typeof pendingClosureSchema>;

/** An admin records that a late payment's money was sent back to its sender (the transaction or a note). */
export const latePaymentRefundedBodySchema = z.object({
  note: z.string({ error: 'Say how the money was sent back' }).trim().min(3, 'Say how the money was sent back').max(500),
});

/** An admin's "erase now": the username typed again, so nobody erases the wrong account by a slip. */
export const eraseNowBodySchema = z.object({
  confirmUsername: z.string({ error: 'Type the username to confirm' }).trim().min(1, 'Type the username to confirm').max(254),
  ...STEP_UP_FIELDS,
});
export const eraseNowResponseSchema = z.object({ _id: z.string(), username: z.string(), erasedAt: z.string() });
