import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';
import type { TicketResponse } from './tickets-api';

export type StaffTicketChange =
  | { kind: 'reply'; message: string; internal?: boolean }
  | { kind: 'update'; change: { status?: string; priority?: string; assignToMe?: boolean; assigneeId?: string | null } };

/** POST /api/staff/tickets/{id}/messages (an answer) or PUT /api/staff/tickets/{id} (status, priority, assignment). */
export function updateStaffTicket(id: string, change: StaffTicketChange): Promise<TicketResponse> {
  const path = `/api/staff/tickets/${encodeURIComponent(id)}`;
  return change.kind === 'reply'
    ? api.post<TicketResponse>(`${path}/messages`, { message: change.message, ...(change.internal ? { internal: true } : {}) })
    : api.put<TicketResponse>(path, change.change);
}

/** The answer becomes the open ticket's data; the queue's rows may have changed. */
export function useUpdateStaffTicket(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: StaffTicketChange) => updateStaffTicket(id, change),
    onSuccess: (res) => {
      client.setQueryData(ticketKeys.staffDetail(id), keepSla(res));
      void client.invalidateQueries({ queryKey: ticketKeys.ratings() });
      return client.invalidateQueries({ queryKey: [...ticketKeys.staff(), 'list'] });
    },
  });
}

/**
 * A staff answer or internal note alone, as its own mutation: the reply box shows its sending state,
 * not that of a status or assignment change. Same cache updates as `useUpdateStaffTicket`.
 */
export function useStaffReply(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ message, internal }: { message: string; internal: boolean }) =>
      updateStaffTicket(id, { kind: 'reply', message, internal }),
    onSuccess: (res) => {
      client.setQueryData(ticketKeys.staffDetail(id), keepSla(res));
      void client.invalidateQueries({ queryKey: ticketKeys.ratings() });
      return client.invalidateQueries({ queryKey: [...ticketKeys.staff(), 'list'] });
    },
  });
}

/**
 * A change's answer carries no SLA state (only the queue and the ticket's GET do: docs/decisions/0293);
 * the badges keep the last known one until the next poll of the open ticket brings the new one.
 */
function keepSla(res: TicketResponse) {
  return (old: TicketResponse | undefined): TicketResponse =>
    res.ticket.sla || !old?.ticket.sla ? res : { ticket: { ...res.ticket, sla: old.ticket.sla } };
}
