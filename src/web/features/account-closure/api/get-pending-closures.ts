import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingClosure } from '#shared/schemas/account-closure';
import { api } from '#web/lib/api-client';

export const pendingClosuresQueryKey = ['admin', 'account-closures'] as const;

/** GET /api/admin/account-closures: accounts closing and not yet erased, the soonest erasure first. */
export async function getPendingClosures(signal?: AbortSignal): Promise<PendingClosure[]> {
  const { closures } = await api.get<{ closures: PendingClosure[] }>('/api/admin/account-closures', { signal });
  return closures;
}

export const pendingClosuresQueryOptions = () => queryOptions({ queryKey: pendingClosuresQueryKey, queryFn: ({ signal }) => getPendingClosures(signal) });

export function usePendingClosures() {
  return useQuery(pendingClosuresQueryOptions());
}
