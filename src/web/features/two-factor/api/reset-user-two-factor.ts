import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { twoFactorKeys } from './two-factor-keys';

/** POST /api/admin/users/{id}/two-factor/reset: an admin turns a user's two-factor off, with a reason. */
export const resetUserTwoFactor = (userId: string, reason: string) =>
  api.post<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor/reset`, { reason }).then((r) => r.twoFactor);

/** The answer is the user's new status: it becomes the status query's data. */
export function useResetUserTwoFactor(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => resetUserTwoFactor(userId, reason),
    onSuccess: (twoFactor) => client.setQueryData(twoFactorKeys.ofUser(userId), twoFactor),
  });
}
