import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { putMyTicket } from './my-ticket-cache';
import { ticketKeys } from './ticket-keys';
import { requesterBase, type TicketResponse } from './tickets-api';

const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * POST …/{id}/attachments?filename=…: the body is the file itself. The server checks the type from the
 * content; the file arrives as a new message of the ticket.
 */
export function uploadAttachment(base: string, id: string, file: File): Promise<TicketResponse> {
  const query = new URLSearchParams({ filename: file.name || 'attachment' });
  return api.post<TicketResponse>(`${base}/${encodeURIComponent(id)}/attachments?${query.toString()}`, file, {
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** The requester attaches a file to their ticket. */
export function useUploadTicketAttachment(isGuest: boolean, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAttachment(requesterBase(isGuest), id, file),
    onSuccess: (res) => {
      putMyTicket(client, isGuest, res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.mine(isGuest), 'list'] });
    },
  });
}

/** Staff answer with a file. */
export function useUploadStaffAttachment(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAttachment('/api/staff/tickets', id, file),
    onSuccess: (res) => {
      client.setQueryData(ticketKeys.staffDetail(id), res);
      return client.invalidateQueries({ queryKey: [...ticketKeys.staff(), 'list'] });
    },
  });
}
