import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/**
 * POST /api/auth/2fa/totp/enable: turns the authenticator app on with its first code; answers the
 * recovery codes. With `signOutOtherSessions` every other session of the account ends (decision 0206).
 */
export const enableTotp = (input: { code: string; signOutOtherSessions: boolean }) =>
  api.post<RecoveryCodesResponse>('/api/auth/2fa/totp/enable', input);

export function useTotpEnable() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: enableTotp, onSuccess: invalidate });
}
