import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { pollWhileVisible, ticketKeys } from './ticket-keys';
import type { TicketResponse } from './tickets-api';

const TICKET_POLL_MS = 5_000;

/** GET /api/staff/tickets/{id}: a ticket with its thread and internal notes. */
export function getStaffTicket(id: string, signal?: AbortSignal): Promise<TicketResponse> {
  return api.get<TicketResponse>(`/api/staff/tickets/${encodeURIComponent(id)}`, { signal });
}

/** A failed poll keeps what is shown; the next one tries again. */
export const staffTicketQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ticketKeys.staffDetail(id),
    queryFn: ({ signal }) => getStaffTicket(id, signal),
    retry: false,
    ...pollWhileVisible(TICKET_POLL_MS),
  });

/** The open ticket, polled; opening it fetches first (`queryClient.fetchQuery`), so it is there at once. */
export function useStaffTicket(id: string | null) {
  return useQuery({ ...staffTicketQueryOptions(id ?? ''), enabled: id !== null });
}
