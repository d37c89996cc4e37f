import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import type { StepUpFieldsInput } from '../components/step-up-field';
import { twoFactorKeys } from './two-factor-keys';

/** What a reset sends: the reason, and the admin's own second factor when their two-factor is on. */
export interface ResetUserTwoFactorInput extends StepUpFieldsInput {
  reason: string;
}

/** POST /api/admin/users/{id}/two-factor/reset: an admin turns a user's two-factor off, with a reason. */
export const resetUserTwoFactor = (userId: string, input: ResetUserTwoFactorInput) =>
  api
    .post<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor/reset`, input)
    .then((r) => r.twoFactor);

/** The answer is the user's new status: it becomes the status query's data. */
export function useResetUserTwoFactor(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetUserTwoFactorInput) => resetUserTwoFactor(userId, input),
    onSuccess: (twoFactor) => client.setQueryData(twoFactorKeys.ofUser(userId), twoFactor),
  });
}
