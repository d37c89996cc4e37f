import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CannedReply, CannedReplyBody } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

export type CannedReplyChange = { kind: 'save'; id: string | null; reply: CannedReplyBody } | { kind: 'delete'; id: string };

/** POST /api/staff/ticket-replies (new), PUT …/{id} (change) or DELETE …/{id}. */
export async function saveCannedReply(change: CannedReplyChange): Promise<CannedReply | null> {
  if (change.kind === 'delete') {
    await api.delete(`/api/staff/ticket-replies/${encodeURIComponent(change.id)}`);
    return null;
  }
  const res = change.id
    ? await api.put<{ reply: CannedReply }>(`/api/staff/ticket-replies/${encodeURIComponent(change.id)}`, change.reply)
    : await api.post<{ reply: CannedReply }>('/api/staff/ticket-replies', change.reply);
  return res.reply;
}

export function useSaveCannedReply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveCannedReply,
    onSuccess: () => client.invalidateQueries({ queryKey: ticketKeys.cannedReplies() }),
  });
}
