import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionApi } from './session';
import { sessionKeys } from './session-keys';

/**
 * GET /api/users/{id}/credits: the signed-in user's balance in credits (docs/product.md#browser-state).
 * Server state, in the query cache only: sign-in puts the user's `credits` there, and whatever changes
 * the balance (a purchase, a redeemed reward, a payment) writes or invalidates this key.
 * Asks only while `enabled` and for a user (guests have no balance).
 */
export const creditsQueryOptions = (userId: string | null, enabled = true) =>
  queryOptions({
    queryKey: sessionKeys.credits(userId),
    queryFn: async () => (await sessionApi.credits(userId!)).credits,
    enabled: enabled && userId !== null,
    // The balance may have changed since sign-in (a payment completed): ask whenever a screen shows it.
    staleTime: 0,
    retry: false,
  });

export function useCredits(userId: string | null, enabled = true) {
  return useQuery(creditsQueryOptions(userId, enabled));
}
