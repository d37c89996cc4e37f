import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RateTicketBody } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { putMyTicket } from './my-ticket-cache';
import { requesterBase, type TicketResponse } from './tickets-api';

/** POST …/{id}/rating: the requester rates the answer once the ticket is resolved or closed. */
export function rateTicket(isGuest: boolean, id: string, rating: RateTicketBody): Promise<TicketResponse> {
  return api.post<TicketResponse>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}/rating`, rating);
}

export function useRateTicket(isGuest: boolean, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rating: RateTicketBody) => rateTicket(isGuest, id, rating),
    onSuccess: (res) => {
      putMyTicket(client, isGuest, res);
    },
  });
}
