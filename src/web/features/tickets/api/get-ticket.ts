import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { useUiStore } from '#web/stores/ui-store';
import { pollWhileVisible, ticketKeys } from './ticket-keys';
import { requesterBase, type TicketResponse } from './tickets-api';

export const DETAIL_POLL_MS = 5_000;

/** GET /api/tickets/{id} (or the guest path): one of my tickets with its thread. */
export function getTicket(isGuest: boolean, id: string, signal?: AbortSignal): Promise<TicketResponse> {
  return api.get<TicketResponse>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}`, { signal });
}

/** Each answer is merged into the UI store's ticket list by _id (docs/product.md#browser-state). A 404 is not retried. */
export const ticketQueryOptions = (isGuest: boolean, id: string) =>
  queryOptions({
    queryKey: ticketKeys.mineDetail(isGuest, id),
    queryFn: async ({ signal }) => {
      const res = await getTicket(isGuest, id, signal);
      useUiStore.getState().addTicket(res.ticket);
      return res;
    },
    retry: false,
    ...pollWhileVisible(DETAIL_POLL_MS),
  });

export function useTicket(isGuest: boolean, id: string | null) {
  return useQuery({ ...ticketQueryOptions(isGuest, id ?? ''), enabled: id !== null });
}
