import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorCode } from '#shared/error-codes';
import { api, ApiError } from '#web/lib/api-client';
import { getStaffTickets } from './get-staff-tickets';
import { ticketKeys } from './ticket-keys';
import type { TicketResponse } from './tickets-api';

/**
 * POST /api/staff/tickets/{id}/merge: merges the ticket with the number staff typed into the open one.
 * The number is looked up first (the queue's search finds a ticket by its number).
 */
export async function mergeTicket(targetId: string, sourceNumber: number): Promise<TicketResponse> {
  const found = await getStaffTickets({ status: '', priority: '', search: String(sourceNumber), assigned: 'any' }, 1);
  const source = found.tickets.find((t) => t.number === sourceNumber);
  if (!source) throw new ApiError(404, `No ticket #${sourceNumber}`, ErrorCode.NOT_FOUND);
  return api.post<TicketResponse>(`/api/staff/tickets/${encodeURIComponent(targetId)}/merge`, { sourceId: source._id });
}

export function useMergeTicket(targetId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sourceNumber: number) => mergeTicket(targetId, sourceNumber),
    onSuccess: (res) => {
      client.setQueryData(ticketKeys.staffDetail(targetId), res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.staff(), 'list'] });
    },
  });
}
