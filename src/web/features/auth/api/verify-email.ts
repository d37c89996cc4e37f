import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/auth/verify-email: spends the link's token and marks the address confirmed. */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (token: string) => api.post<{ success: true; message: string; emailVerified: true }>('/api/auth/verify-email', { token }),
  });
}
