import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClosureSummary } from '#shared/schemas/account-closure';
import { api } from '#web/lib/api-client';

export const closureSummaryQueryKey = ['account', 'closure-summary'] as const;

/** GET /api/users/me/closure: the balance closing would forfeit, the orders still open, whether a second factor is asked. */
export function getClosureSummary(signal?: AbortSignal): Promise<ClosureSummary> {
  return api.get<ClosureSummary>('/api/users/me/closure', { signal });
}

export const closureSummaryQueryOptions = () =>
  queryOptions({ queryKey: closureSummaryQueryKey, queryFn: ({ signal }) => getClosureSummary(signal) });

/** Asked when the dialog opens (and again when it refetches), so the figure shown is the current one. */
export function useClosureSummary(enabled: boolean) {
  return useQuery({ ...closureSummaryQueryOptions(), enabled, staleTime: 0 });
}
