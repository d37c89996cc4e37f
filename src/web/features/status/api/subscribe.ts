import { useMutation } from '@tanstack/react-query';
import { currentLocale } from '#web/features/language';
import { api } from '#web/lib/api-client';

/**
 * POST /api/status/subscriptions: mails a confirmation link (the answer is the same for any address),
 * in the page's language; English, the server's default, is not sent.
 */
export const subscribeToStatus = (email: string) => {
  const locale = currentLocale();
  return api.post<{ message: string }>('/api/status/subscriptions', {
    email,
    ...(locale === 'en' || locale === 'pseudo' ? {} : { locale }),
  });
};

export function useSubscribeToStatus() {
  return useMutation({ mutationFn: subscribeToStatus });
}
