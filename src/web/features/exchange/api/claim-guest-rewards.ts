import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimGuestRewardsResponse, RewardClaimInput } from '#shared/schemas/exchange';
import { sessionKeys } from '#web/features/auth/credits';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/**
 * POST /api/exchange/claim-guest-rewards (docs/product.md#api): the valid claims and the signed-in user's id.
 * The sign-in flow (lib/redeem-guest-rewards.ts) calls it outside any screen; the form uses the hook below.
 */
export function postClaimGuestRewards(claims: RewardClaimInput[], userId: string) {
  return api.post<ClaimGuestRewardsResponse>('/api/exchange/claim-guest-rewards', { claims, userId });
}

/**
 * One claim typed by hand (the exchange id and the code a guest kept), on any device: the same call, rules
 * and limits as the claims redeemed from this browser's storage at sign-in. A claim changes the balance,
 * the credit history and the user's exchanges, so those are read again.
 */
export function useClaimReward(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (claim: { exchangeId: string; claimCode: string }) => postClaimGuestRewards([claim], userId),
    onSuccess: () => {
      // The balance, the credit history and its receipts all live under the credits key.
      void client.invalidateQueries({ queryKey: sessionKeys.allCredits });
      void client.invalidateQueries({ queryKey: exchangeKeys.all });
    },
  });
}
