/**
 * The exchange call made outside any screen: redeeming a guest's claims after sign-in
 * (lib/redeem-guest-rewards.ts). Screens use the query and mutation files beside this one.
 */
import type { ClaimGuestRewardsResponse, RewardClaimInput } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';

/** POST /api/exchange/claim-guest-rewards (spec section 7): the valid claims and the signed-in user's id. */
export function postClaimGuestRewards(claims: RewardClaimInput[], userId: string) {
  return api.post<ClaimGuestRewardsResponse>('/api/exchange/claim-guest-rewards', { claims, userId });
}
