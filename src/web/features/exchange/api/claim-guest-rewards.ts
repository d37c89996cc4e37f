import type { ClaimGuestRewardsResponse, RewardClaimInput } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';

/**
 * POST /api/exchange/claim-guest-rewards (docs/product.md#api): the valid claims and the signed-in user's id.
 * Made outside any screen, right after a sign-in (lib/redeem-guest-rewards.ts), so it has no hook.
 */
export function postClaimGuestRewards(claims: RewardClaimInput[], userId: string) {
  return api.post<ClaimGuestRewardsResponse>('/api/exchange/claim-guest-rewards', { claims, userId });
}
