import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSessionStore } from '../stores/session-store';

/**
 * GET /api/users/{id}/credits, through the session store: the balance is part of the session the
 * header shows (docs/product.md#browser-state), so the store keeps it and this query only decides when to ask again.
 * Asks only while `enabled`; the store's own call fails for guests.
 */
export const creditsQueryOptions = (userId: string | null, enabled = true) =>
  queryOptions({
    queryKey: ['credits', 'balance', userId],
    queryFn: () => useSessionStore.getState().fetchCredits(),
    enabled,
    // The balance may have changed since sign-in (a payment completed): ask whenever a screen shows it.
    staleTime: 0,
    retry: false,
  });

export function useCredits(userId: string | null, enabled = true) {
  return useQuery(creditsQueryOptions(userId, enabled));
}
