import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveriesResponse } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** While something is queued or its retry is about due, the log refreshes itself this often. */
export const PENDING_REFRESH_MS = 3000;
/** A retry hours away needs no 3-second polling: the log looks again this often until it is near. */
const WAITING_REFRESH_MS = 60_000;

/** How soon to look again: quickly when an attempt is imminent, slowly while retries are far off, never when all is done. */
export function deliveriesRefreshInterval(data: WebhookDeliveriesResponse | undefined, now = Date.now()): number | false {
  const pending = data?.deliveries.filter((d) => d.status === 'pending') ?? [];
  if (pending.length === 0) return false;
  const imminent = pending.some((d) => d.attempts === 0 || !d.nextAttemptAt || Date.parse(d.nextAttemptAt) - now < WAITING_REFRESH_MS);
  return imminent ? PENDING_REFRESH_MS : WAITING_REFRESH_MS;
}

/** GET /api/users/webhook-deliveries: one page of my deliveries, newest first. */
export const getWebhookDeliveries = (page: number, pageSize: number, signal?: AbortSignal) =>
  api.get<WebhookDeliveriesResponse>(`/api/users/webhook-deliveries?page=${page}&pageSize=${pageSize}`, { signal });

/** Refreshes itself while a delivery is still pending (often when an attempt is near); a failed refresh keeps what is on screen. */
export const webhookDeliveriesQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveriesPage(page, pageSize),
    queryFn: ({ signal }) => getWebhookDeliveries(page, pageSize, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => deliveriesRefreshInterval(query.state.data),
    refetchIntervalInBackground: true,
  });

export function useWebhookDeliveries(page: number, pageSize: number) {
  return useQuery(webhookDeliveriesQueryOptions(page, pageSize));
}
