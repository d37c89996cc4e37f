import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/auth/resend-verification (signed in, rate-limited): a new confirmation link. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.post<{ success: true; message: string }>('/api/auth/resend-verification'),
  });
}
