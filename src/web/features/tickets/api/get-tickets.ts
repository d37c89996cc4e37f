import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketListResponse } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { dedupeTickets } from './my-ticket-cache';
import { pollWhileVisible, ticketKeys } from './ticket-keys';
import { requesterBase } from './tickets-api';

export const LIST_POLL_MS = 15_000;
export const SUPPORT_PAGE_SIZE = 20;

/** GET /api/tickets (or /api/tickets/guest): one page of my tickets. */
export function getTickets(isGuest: boolean, page: number, signal?: AbortSignal): Promise<TicketListResponse> {
  return api.get<TicketListResponse>(`${requesterBase(isGuest)}${toQueryString({ page, pageSize: SUPPORT_PAGE_SIZE })}`, { signal });
}

/** One page of my tickets, one ticket per _id; the cache is the browser's only copy (my-ticket-cache.ts). */
export const ticketsQueryOptions = (isGuest: boolean, page: number) =>
  queryOptions({
    queryKey: ticketKeys.mineList(isGuest, page),
    queryFn: async ({ signal }) => {
      const res = await getTickets(isGuest, page, signal);
      return { ...res, tickets: dedupeTickets(res.tickets) };
    },
    placeholderData: keepPreviousData,
    ...pollWhileVisible(LIST_POLL_MS),
  });

export function useTickets(isGuest: boolean, page: number, enabled: boolean) {
  return useQuery({ ...ticketsQueryOptions(isGuest, page), enabled });
}
