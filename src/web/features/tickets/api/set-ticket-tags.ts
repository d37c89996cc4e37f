import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

/** PUT /api/staff/tickets/{id}/tags: staff set a ticket's tags (decision 0294); the ticket and the queue reload. */
export function useSetTicketTags(ticketId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tags: string[]) => api.put<{ tags: string[] }>(`/api/staff/tickets/${encodeURIComponent(ticketId)}/tags`, { tags }),
    onSuccess: () => client.invalidateQueries({ queryKey: ticketKeys.staff() }),
  });
}
