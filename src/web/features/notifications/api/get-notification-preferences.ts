import { useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '#shared/schemas/notifications';
import { api } from '#web/lib/api-client';
import { notificationKeys } from './notification-keys';

/** GET /api/users/notification-preferences: the event × channel matrix and each channel's state. */
export function useNotificationPreferences() {
  return useQuery({
    queryKey: notificationKeys.preferences,
    queryFn: () => api.get<NotificationPreferences>('/api/users/notification-preferences'),
  });
}
