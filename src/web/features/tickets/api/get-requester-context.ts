import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RequesterContext } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

/** GET /api/staff/tickets/{id}/requester: who asks, with their account and money (read-only). */
export const fetchRequesterContext = (id: string, signal?: AbortSignal) =>
  api.get<{ requester: RequesterContext }>(`/api/staff/tickets/${encodeURIComponent(id)}/requester`, { signal });

export const requesterContextQueryOptions = (id: string) =>
  queryOptions({ queryKey: ticketKeys.requester(id), queryFn: ({ signal }) => fetchRequesterContext(id, signal), staleTime: 30_000 });

export function useRequesterContext(id: string) {
  return useQuery(requesterContextQueryOptions(id));
}
