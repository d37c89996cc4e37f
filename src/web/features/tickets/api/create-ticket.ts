import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTicketBody } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { putMyTicket } from './my-ticket-cache';
import { ticketKeys } from './ticket-keys';
import { requesterBase, type TicketResponse } from './tickets-api';

/** POST /api/tickets (or the guest path): a new ticket with its first message. */
export function createTicket(isGuest: boolean, body: CreateTicketBody): Promise<TicketResponse> {
  return api.post<TicketResponse>(requesterBase(isGuest), body);
}

export function useCreateTicket(isGuest: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTicketBody) => createTicket(isGuest, body),
    onSuccess: (res) => {
      putMyTicket(client, isGuest, res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.mine(isGuest), 'list'] });
    },
  });
}
