import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { putMyTicket } from './my-ticket-cache';
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

/** The answered ticket becomes the open ticket's data and is merged into the cached list. */
export function useUpdateTicket(isGuest: boolean, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: TicketChange) => updateTicket(isGuest, id, change),
    onSuccess: (res) => {
      putMyTicket(client, isGuest, res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.mine(isGuest), 'list'] });
    },
  });
}

/**
 * A reply alone, as its own mutation: the reply box shows its sending state, not that of closing or
 * reopening the ticket. Same cache updates as `useUpdateTicket`.
 */
export function useReplyToTicket(isGuest: boolean, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ message }: { message: string }) => updateTicket(isGuest, id, { kind: 'reply', message }),
    onSuccess: (res) => {
      putMyTicket(client, isGuest, res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.mine(isGuest), 'list'] });
    },
  });
}
