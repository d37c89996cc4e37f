import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** POST /api/auth/2fa/recovery-codes: new recovery codes (the old ones stop working). */
export const regenerateRecoveryCodes = (currentPassword: string) => api.post<RecoveryCodesResponse>('/api/auth/2fa/recovery-codes', { currentPassword });

export function useRegenerateRecoveryCodes() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: regenerateRecoveryCodes, onSuccess: invalidate });
}
