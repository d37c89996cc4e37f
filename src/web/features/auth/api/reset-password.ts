import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/**
 * POST /api/auth/reset-password: a new password with the link's token; every session of the account ends,
 * and with `removePasskeys` every passkey is removed too.
 */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string; removePasskeys: boolean }) =>
      api.post<{ success: true; message: string }>('/api/auth/reset-password', input),
  });
}
