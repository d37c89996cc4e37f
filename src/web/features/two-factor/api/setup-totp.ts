import { useMutation } from '@tanstack/react-query';
import type { TotpSetupResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';

/** POST /api/auth/2fa/totp/setup: a new authenticator secret to confirm (nothing changes until it is enabled). */
export const setupTotp = (currentPassword: string) => api.post<TotpSetupResponse>('/api/auth/2fa/totp/setup', { currentPassword });

export function useTotpSetup() {
  return useMutation({ mutationFn: setupTotp });
}
