import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => api.post<{ success: true; message: string }>('/api/auth/forgot-password', { email }),
  });
}
