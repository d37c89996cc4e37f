import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { sessionKeys } from './session-keys';

/**
 * POST /api/auth/confirm-email-change: the link sent to the new address makes the change. A signed-in
 * user's cached profile is read again, so settings show the new address.
 */
export function useConfirmEmailChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<{ success: true; message: string; email: string }>('/api/auth/confirm-email-change', { token }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.user }),
  });
}
