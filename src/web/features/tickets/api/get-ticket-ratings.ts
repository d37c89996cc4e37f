import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketRatingStats } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

/** GET /api/staff/tickets/ratings: the average rating, overall and per assigned staff member. */
export function getTicketRatings(signal?: AbortSignal): Promise<TicketRatingStats> {
  return api.get<TicketRatingStats>('/api/staff/tickets/ratings', { signal });
}

export const ticketRatingsQueryOptions = () =>
  queryOptions({ queryKey: ticketKeys.ratings(), queryFn: ({ signal }) => getTicketRatings(signal), staleTime: 30_000 });

export function useTicketRatings() {
  return useQuery(ticketRatingsQueryOptions());
}
