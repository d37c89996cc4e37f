import { useMutation } from '@tanstack/react-query';
import type { CloseAccountResponse } from '#shared/schemas/account-closure';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';

export type CloseAccountInput = {
  password: string;
  acknowledgeForfeitedCents: number;
  acknowledgeCampaignReserveCents: number;
} & StepUpFieldsInput;

/**
 * DELETE /api/users/me: 202 { erasureAt }; 409 BALANCE_CHANGED when the balance is no longer the one
 * shown, or the ad campaigns hold more than was shown (decision 0304).
 */
export function closeAccount(input: CloseAccountInput): Promise<CloseAccountResponse> {
  return api.delete<CloseAccountResponse>('/api/users/me', input);
}

export function useCloseAccount() {
  return useMutation({ mutationFn: closeAccount });
}
