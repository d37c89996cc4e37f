import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/status/subscriptions: mails a confirmation link (the answer is the same for any address). */
export const subscribeToStatus = (email: string) => api.post<{ message: string }>('/api/status/subscriptions', { email });

export function useSubscribeToStatus() {
  return useMutation({ mutationFn: subscribeToStatus });
}
