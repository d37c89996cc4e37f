import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveriesResponse } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** While something is queued or waiting for a retry, the log refreshes itself this often. */
export const PENDING_REFRESH_MS = 3000;

/** GET /api/users/webhook-deliveries: one page of my deliveries, newest first. */
export const getWebhookDeliveries = (page: number, pageSize: number, signal?: AbortSignal) =>
  api.get<WebhookDeliveriesResponse>(`/api/users/webhook-deliveries?page=${page}&pageSize=${pageSize}`, { signal });

/** Refreshes itself while a delivery is still pending; a failed refresh keeps what is on screen. */
export const webhookDeliveriesQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveriesPage(page, pageSize),
    queryFn: ({ signal }) => getWebhookDeliveries(page, pageSize, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false),
    refetchIntervalInBackground: true,
  });

export function useWebhookDeliveries(page: number, pageSize: number) {
  return useQuery(webhookDeliveriesQueryOptions(page, pageSize));
}
