import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkNotificationsReadBody } from '#shared/schemas/notifications';
import { api } from '#web/lib/api-client';
import { notificationKeys } from './notification-keys';

/** POST /api/notifications/read: `{ ids }` or `{ all: true }`; every list is asked again after. */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkNotificationsReadBody) => api.post<{ updated: number; unreadCount: number }>('/api/notifications/read', body),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
