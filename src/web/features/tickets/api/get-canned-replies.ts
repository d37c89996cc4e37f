import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CannedReply } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

/** GET /api/staff/ticket-replies: the canned replies staff insert into the reply box. */
export function getCannedReplies(signal?: AbortSignal): Promise<{ replies: CannedReply[] }> {
  return api.get<{ replies: CannedReply[] }>('/api/staff/ticket-replies', { signal });
}

export const cannedRepliesQueryOptions = () =>
  queryOptions({ queryKey: ticketKeys.cannedReplies(), queryFn: ({ signal }) => getCannedReplies(signal) });

export function useCannedReplies() {
  return useQuery(cannedRepliesQueryOptions());
}
