import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketListResponse } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { pollWhileVisible, ticketKeys } from './ticket-keys';

export const STAFF_PAGE_SIZE = 20;
const QUEUE_POLL_MS = 15_000;

export interface StaffTicketFilters {
  status: string;
  priority: string;
  search: string;
  assigned: string;
  /** '', 'breached' or 'due_soon' (docs/decisions/0293). */
  sla?: string;
}

/** GET /api/staff/tickets: one page of the queue, filtered. */
export function getStaffTickets(filters: StaffTicketFilters, page: number, signal?: AbortSignal): Promise<TicketListResponse> {
  return api.get<TicketListResponse>(`/api/staff/tickets${toQueryString({ ...filters, page, pageSize: STAFF_PAGE_SIZE })}`, { signal });
}

/** Typed searches ask once per key; the key holds the filters, so only the newest answer is shown. */
export const staffTicketsQueryOptions = (filters: StaffTicketFilters, page: number) =>
  queryOptions({
    queryKey: ticketKeys.staffList({ ...filters }, page),
    queryFn: ({ signal }) => getStaffTickets(filters, page, signal),
    placeholderData: keepPreviousData,
    ...pollWhileVisible(QUEUE_POLL_MS),
  });

export function useStaffTickets(filters: StaffTicketFilters, page: number, enabled: boolean) {
  return useQuery({ ...staffTicketsQueryOptions(filters, page), enabled });
}
