import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/mail/unsubscribe: turns one kind of notification off with the signed link (no sign-in). */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => api.post<{ success: true; message: string; kind: string }>('/api/mail/unsubscribe', { token }),
  });
}
