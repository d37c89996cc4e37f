import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/auth/confirm-email-change: the link sent to the new address makes the change. */
export function useConfirmEmailChange() {
  return useMutation({
    mutationFn: (token: string) => api.post<{ success: true; message: string; email: string }>('/api/auth/confirm-email-change', { token }),
  });
}
