import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GuestRewardsStatusResponse, RewardClaimInput } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { pruneExpiredClaims, removeClaims, toPayload, type LocalRewardClaims } from '../lib/reward-claims';
import { exchangeKeys } from './exchange-keys';

/** POST /api/exchange/guest-rewards-status (docs/product.md#api): which stored claims are still valid. */
export function postGuestRewardsStatus(claims: RewardClaimInput[]) {
  return api.post<GuestRewardsStatusResponse>('/api/exchange/guest-rewards-status', { claims });
}

/**
 * Checks this browser's claims with the server and forgets those it marks invalid (docs/product.md#guest-claims);
 * answers the claims kept. `version` changes when a claim was saved, which asks again.
 */
export const guestRewardsQueryOptions = (version: number, claims: LocalRewardClaims) =>
  queryOptions({
    queryKey: exchangeKeys.rewardsStatus(version, Object.keys(claims).sort()),
    queryFn: async () => {
      const response = await postGuestRewardsStatus(toPayload(claims));
      if (response?.success) removeClaims(response.data.claims.filter((c) => !c.valid).map((c) => c.exchangeId));
      return pruneExpiredClaims();
    },
    enabled: Object.keys(claims).length > 0,
    // Could not check now: the stored claims stay on screen; the check runs again next time.
    retry: false,
  });

export function useGuestRewards(version: number, claims: LocalRewardClaims) {
  return useQuery(guestRewardsQueryOptions(version, claims));
}
