import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataExport, LatestDataExport } from '#shared/schemas/privacy';
import { api } from '#web/lib/api-client';

export const latestDataExportQueryKey = ['privacy', 'export', 'latest'] as const;
/** How often a pending export is asked about again. */
export const EXPORT_POLL_MS = 2_000;

/** GET /api/users/me/exports: my latest copy of my data (requested within 7 days), or null. */
export async function getLatestDataExport(signal?: AbortSignal): Promise<DataExport | null> {
  const { export: latest } = await api.get<LatestDataExport>('/api/users/me/exports', { signal });
  return latest;
}

export const latestDataExportQueryOptions = () =>
  queryOptions({
    queryKey: latestDataExportQueryKey,
    queryFn: ({ signal }) => getLatestDataExport(signal),
    // While the job builds it, follow its progress; stop once it is ready, expired or failed.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? EXPORT_POLL_MS : false),
  });

export function useLatestDataExport() {
  return useQuery(latestDataExportQueryOptions());
}
