import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { putMyTicket } from './my-ticket-cache';
import { pollWhileVisible, ticketKeys } from './ticket-keys';
import { requesterBase, type TicketResponse } from './tickets-api';

export const DETAIL_POLL_MS = 5_000;

/** GET /api/tickets/{id} (or the guest path): one of my tickets with its thread. */
export function getTicket(isGuest: boolean, id: string, signal?: AbortSignal): Promise<TicketResponse> {
  return api.get<TicketResponse>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}`, { signal });
}

/** Each answer is also merged into the cached list by _id (my-ticket-cache.ts). A 404 is not retried. */
export const ticketQueryOptions = (client: QueryClient, isGuest: boolean, id: string) =>
  queryOptions({
    queryKey: ticketKeys.mineDetail(isGuest, id),
    queryFn: async ({ signal }) => {
      const res = await getTicket(isGuest, id, signal);
      putMyTicket(client, isGuest, res);
      return res;
    },
    retry: false,
    ...pollWhileVisible(DETAIL_POLL_MS),
  });

export function useTicket(isGuest: boolean, id: string | null) {
  const client = useQueryClient();
  return useQuery({ ...ticketQueryOptions(client, isGuest, id ?? ''), enabled: id !== null });
}
