import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { NotificationListResponse } from '#shared/schemas/notifications';
import { api } from '#web/lib/api-client';
import { notificationKeys } from './notification-keys';

export function fetchNotifications(cursor: string | null, limit: number): Promise<NotificationListResponse> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return api.get<NotificationListResponse>(`/api/notifications?${query.toString()}`);
}

/**
 * GET /api/notifications: the newest few and the unread count (the bell and its panel). Polls every
 * 30 s while the live stream is down (`poll`).
 */
export function useLatestNotifications(enabled: boolean, poll: boolean) {
  return useQuery({
    queryKey: notificationKeys.list('panel'),
    queryFn: () => fetchNotifications(null, 8),
    enabled,
    refetchInterval: poll ? 30_000 : false,
  });
}

/** GET /api/notifications, page after page by cursor (the notifications page). */
export function useNotificationPages() {
  return useInfiniteQuery({
    queryKey: notificationKeys.list('page'),
    queryFn: ({ pageParam }) => fetchNotifications(pageParam, 20),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
