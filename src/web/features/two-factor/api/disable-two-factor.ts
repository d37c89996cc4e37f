import { useMutation } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import type { StepUpFieldsInput } from '../components/step-up-field';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** POST /api/auth/2fa/disable: turns two-factor off with my password and the second factor. */
export const disableTwoFactor = (input: { currentPassword: string } & StepUpFieldsInput) =>
  api.post<{ twoFactor: TwoFactorStatus }>('/api/auth/2fa/disable', input);

export function useDisableTwoFactor() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: invalidate });
}
