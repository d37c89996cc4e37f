import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { useUiStore } from '#web/stores/ui-store';
import { ticketKeys } from './ticket-keys';
import { requesterBase, type TicketResponse } from './tickets-api';

export type TicketChange = { kind: 'reply'; message: string } | { kind: 'status'; status: 'open' | 'closed' };

/** POST …/{id}/messages (a reply) or PUT …/{id} (close or reopen), as the ticket's requester. */
export function updateTicket(isGuest: boolean, id: string, change: TicketChange): Promise<TicketResponse> {
  const path = `${requesterBase(isGuest)}/${encodeURIComponent(id)}`;
  return change.kind === 'reply'
    ? api.post<TicketResponse>(`${path}/messages`, { message: change.message })
    : api.put<TicketResponse>(path, { status: change.status });
}

/** The answered ticket is merged into the UI store's list and becomes the open ticket's data. */
export function useUpdateTicket(isGuest: boolean, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: TicketChange) => updateTicket(isGuest, id, change),
    onSuccess: (res) => {
      useUiStore.getState().addTicket(res.ticket);
      client.setQueryData(ticketKeys.mineDetail(isGuest, id), res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.mine(isGuest), 'list'] });
    },
  });
}
