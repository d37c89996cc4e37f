import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** POST /api/auth/2fa/totp/enable: turns the authenticator app on with its first code; answers the recovery codes. */
export const enableTotp = (code: string) => api.post<RecoveryCodesResponse>('/api/auth/2fa/totp/enable', { code });

export function useTotpEnable() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: enableTotp, onSuccess: invalidate });
}
