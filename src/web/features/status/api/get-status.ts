import { t } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATUS_PAGE_REFRESH_MS, type StatusResponse } from '#shared/schemas/status';
import { api, errorMessage } from '#web/lib/api-client';

/** GET /api/status: each component's state, uptime by day and the incidents of the last 90 days. */
export const getStatus = (signal?: AbortSignal) => api.get<StatusResponse>('/api/status', signal ? { signal } : undefined);

export const statusQueryKey = ['status'] as const;

/** The report as the staff incident list reads it: once, and again after each change. */
export const statusQueryOptions = () => queryOptions({ queryKey: statusQueryKey, queryFn: ({ signal }) => getStatus(signal) });

/**
 * The report as the status page shows it: refreshed every STATUS_PAGE_REFRESH_MS while the tab is
 * visible, and at once when the visitor comes back to the tab.
 */
export const liveStatusQueryOptions = () =>
  queryOptions({
    ...statusQueryOptions(),
    refetchInterval: STATUS_PAGE_REFRESH_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
  });

export interface LiveStatus {
  data: StatusResponse | null;
  /** Why the last refresh failed; the last good data stays on screen meanwhile. */
  error: string | null;
  loading: boolean;
  /** When the shown data arrived (ms since epoch). */
  updatedAt: number | null;
  refresh(): void;
}

export function useLiveStatus(): LiveStatus {
  const query = useQuery(liveStatusQueryOptions());
  return {
    data: query.data ?? null,
    error: query.isError ? errorMessage(query.error, t`Could not load the status`) : null,
    loading: query.isFetching,
    updatedAt: query.data ? query.dataUpdatedAt : null,
    refresh: () => void query.refetch({ cancelRefetch: true }),
  };
}
