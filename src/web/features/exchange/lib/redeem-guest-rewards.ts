/**
 * The guest claims flow of docs/product.md#guest-claims: after a non-guest sign-in, validate the locally kept claims,
 * drop invalid and expired ones, redeem the valid ones, then force-clear whatever is left.
 */
import { t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import toast from 'react-hot-toast';
import { creditsQueryOptions } from '#web/features/auth/credits';
import { queryClient } from '#web/lib/query-client';
import { errorMessage } from '#web/lib/api-client';
import { postClaimGuestRewards } from '../api/claim-guest-rewards';
import { postGuestRewardsStatus } from '../api/get-guest-rewards-status';
import { clearClaims, pruneExpiredClaims, removeClaims, toPayload, type ClaimPayload } from './reward-claims';
import { formatLocaleCredits } from '#web/lib/format';

/** Toast texts of docs/product.md#errors, to the letter. */
// Read when shown, so each toast is in the language on screen then (decision 0326).
export const REWARD_TOASTS = {
  get loading() {
    return t`Redeeming your rewards...`;
  },
  success: (credits: number) => {
    const amount = formatLocaleCredits(Math.round(credits * 100));
    return t`Claimed ${amount} credits from previous exchanges!`;
  },
  get failure() {
    return t`Failed to claim pending rewards`;
  },
  /** Ours: claims on exchanges still running are now the account's, credited when they finish. */
  get taken() {
    return t`Rewards from exchanges still in progress will be credited when they finish.`;
  },
};

export interface ClaimsValidation {
  totalPotentialRewards: number;
  claims: { exchangeId: string; valid: boolean }[];
}

export interface ClaimsRedemption {
  totalCredited: number;
  results: { exchangeId: string; claimed: boolean }[];
  /** The server's error (or the client's words when there was no answer), when the redemption failed. */
  error?: string;
}

/** Asks which claims are still valid; a failure answers zero totals (docs/product.md#errors). */
export async function validateClaims(claims: ClaimPayload[]): Promise<ClaimsValidation> {
  try {
    const response = await postGuestRewardsStatus(claims);
    if (!response?.success || !response.data) return { totalPotentialRewards: 0, claims: [] };
    return { totalPotentialRewards: response.data.totalPotentialRewards, claims: response.data.claims };
  } catch {
    return { totalPotentialRewards: 0, claims: [] };
  }
}

/** Redeems claims for `userId`; a failure answers zero totals and the server's error (docs/product.md#errors). */
export async function redeemClaims(claims: ClaimPayload[], userId: string): Promise<ClaimsRedemption> {
  try {
    const response = await postClaimGuestRewards(claims, userId);
    if (!response?.success || !response.data) return { totalCredited: 0, results: [], error: REWARD_TOASTS.failure };
    return { totalCredited: response.data.totalCredited, results: response.data.results };
  } catch (err) {
    return { totalCredited: 0, results: [], error: errorMessage(err, REWARD_TOASTS.failure) };
  }
}

let inFlight: Promise<ClaimsRedemption> | null = null;

/**
 * Runs the whole flow once at a time (a second sign-in hook while one runs shares it). Answers what
 * was credited; the session's credits are refreshed when anything was.
 */
export function redeemPendingGuestRewards(userId: string, now = Date.now()): Promise<ClaimsRedemption> {
  inFlight ??= run(userId, now).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function run(userId: string, now: number): Promise<ClaimsRedemption> {
  try {
    const pending = toPayload(pruneExpiredClaims(now));
    if (pending.length === 0) return { totalCredited: 0, results: [] };

    const validation = await validateClaims(pending);
    // A successful answer lists every claim; none back means the check itself failed.
    if (validation.claims.length === 0) {
      toast.error(REWARD_TOASTS.failure);
      return { totalCredited: 0, results: [], error: REWARD_TOASTS.failure };
    }
    const validIds = new Set(validation.claims.filter((c) => c.valid).map((c) => c.exchangeId));
    removeClaims(pending.filter((c) => !validIds.has(c.exchangeId)).map((c) => c.exchangeId));
    const valid = pending.filter((c) => validIds.has(c.exchangeId));
    if (valid.length === 0) return { totalCredited: 0, results: [] };

    const toastId = toast.loading(REWARD_TOASTS.loading);
    const redemption = await redeemClaims(valid, userId);
    removeClaims(redemption.results.filter((r) => r.claimed).map((r) => r.exchangeId));
    if (!redemption.error && redemption.totalCredited > 0) {
      toast.success(REWARD_TOASTS.success(redemption.totalCredited), { id: toastId });
      // The balance shown comes from the query cache: read it again (a failure is shown where it is shown).
      await queryClient.fetchQuery(creditsQueryOptions(userId)).catch(() => undefined);
    } else if (!redemption.error && redemption.results.some((r) => r.claimed)) {
      toast.success(REWARD_TOASTS.taken, { id: toastId });
    } else {
      toast.error(REWARD_TOASTS.failure, { id: toastId });
    }
    return redemption;
  } finally {
    // docs/product.md#guest-claims: any claims left after sign-in are force-cleared.
    clearClaims();
  }
}
