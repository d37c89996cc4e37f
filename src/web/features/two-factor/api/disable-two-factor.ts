import { useMutation } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** POST /api/auth/2fa/disable: turns two-factor off with my password and a code. */
export const disableTwoFactor = (input: { currentPassword: string; code: string }) => api.post<{ twoFactor: TwoFactorStatus }>('/api/auth/2fa/disable', input);

export function useDisableTwoFactor() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: invalidate });
}
