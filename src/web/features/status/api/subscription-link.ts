import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export type SubscriptionLinkAction = 'confirm' | 'unsubscribe';

/** POST /api/status/subscriptions/{confirm|unsubscribe}: the token of a link in a status mail. */
export const followSubscriptionLink = ({ action, token }: { action: SubscriptionLinkAction; token: string }) =>
  api.post<{ message: string }>(`/api/status/subscriptions/${action}`, { token });

export function useFollowSubscriptionLink() {
  return useMutation({ mutationFn: followSubscriptionLink });
}
