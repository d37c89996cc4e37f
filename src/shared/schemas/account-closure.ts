import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '#shared/constants.js';
import { TWO_FACTOR_METHODS, STEP_UP_FIELDS } from './two-factor.js';

/** Closing an account and restoring it within its 14 days (decision 0255, docs/product.md#closing-an-account). */

const passwordField = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH);

/** What the closing dialog shows before anyone confirms: what will be forfeited and what is still open. */
export const closureSummarySchema = z
  .object({
    balanceCents: z.number().int(),
    pendingOrders: z.array(z.object({ _id: z.string(), itemName: z.string(), priceCents: z.number().int(), createdAt: z.string() })),
    erasureDelayDays: z.number().int(),
    twoFactorRequired: z.boolean(),
  })
  .meta({ id: 'AccountClosureSummary' });
export type ClosureSummary = z.infer<typeof closureSummarySchema>;

/**
 * DELETE /api/users/me. `acknowledgeForfeitedCents` is the balance the dialog showed; when the balance is
 * different now the closure is refused (409 BALANCE_CHANGED), so nobody forfeits credits they did not see.
 */
export const closeAccountBodySchema = z.object({
  password: passwordField,
  acknowledgeForfeitedCents: z.number({ error: 'Confirm the balance you forfeit' }).int('Whole cents only').min(0).max(Number.MAX_SAFE_INTEGER),
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

/** A closing account as the staff console lists it. */
export const pendingClosureSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  balanceCents: z.number().int(),
  closingAt: z.string(),
  erasureAt: z.string(),
});
export const pendingClosuresResponseSchema = z.object({ closures: z.array(pendingClosureSchema) });
export type PendingClosure = z.infer<typeof pendingClosureSchema>;

/** An admin's "erase now": the username typed again, so nobody erases the wrong account by a slip. */
export const eraseNowBodySchema = z.object({
  confirmUsername: z.string({ error: 'Type the username to confirm' }).trim().min(1, 'Type the username to confirm').max(254),
});
export const eraseNowResponseSchema = z.object({ _id: z.string(), username: z.string(), erasedAt: z.string() });
