import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, UpdateNotificationPreferencesBody } from '#shared/schemas/notifications';
import { api } from '#web/lib/api-client';
import { notificationKeys } from './notification-keys';

/** PUT /api/users/notification-preferences: cells, a resumed chat channel, the low-balance threshold. */
export function useUpdateNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationPreferencesBody) => api.put<NotificationPreferences>('/api/users/notification-preferences', body),
    onSuccess: (saved) => client.setQueryData(notificationKeys.preferences, saved),
  });
}
