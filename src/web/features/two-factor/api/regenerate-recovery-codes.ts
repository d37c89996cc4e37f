import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '#shared/schemas/two-factor';
import type { StepUpFieldsInput } from '../components/step-up-field';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** POST /api/auth/2fa/recovery-codes: new recovery codes (the old ones stop working); password and second factor. */
export const regenerateRecoveryCodes = (input: { currentPassword: string } & StepUpFieldsInput) =>
  api.post<RecoveryCodesResponse>('/api/auth/2fa/recovery-codes', input);

export function useRegenerateRecoveryCodes() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: regenerateRecoveryCodes, onSuccess: invalidate });
}
