import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/admin/mail/:id/retry: send a failed message again. */
export function useRetryMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ message: string }>(`/api/admin/mail/${encodeURIComponent(id)}/retry`),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'mail'] }),
  });
}
