import { useMutation } from '@tanstack/react-query';
import type { TicketAttachment } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';

/**
 * GET …/{id}/attachments/{attachmentId} with the session's headers, then hands the bytes to the browser
 * as a download under the name the server made safe. (A plain link would not carry the bearer token.)
 */
export async function downloadAttachment(base: string, ticketId: string, file: TicketAttachment): Promise<void> {
  const blob = await api.get<Blob>(`${base}/${encodeURIComponent(ticketId)}/attachments/${encodeURIComponent(file._id)}`, {
    responseType: 'blob',
  });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = file.filename;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  }
}

/** Downloads a file of ticket `ticketId` under `base` (the requester's or the staff path) when its button is pressed. */
export function useDownloadAttachment(base: string, ticketId: string) {
  return useMutation({ mutationFn: (file: TicketAttachment) => downloadAttachment(base, ticketId, file) });
}
