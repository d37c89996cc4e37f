import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SandboxInfo } from '#shared/schemas/sandbox';
import { api } from '#web/lib/api-client';

/** GET /api/sandbox: which providers run as local sandboxes, and whether pages offer the controls. */
export const getSandboxInfo = (signal?: AbortSignal) => api.get<SandboxInfo>('/api/sandbox', { signal });

/** The server's configuration: read once per visit. */
export const sandboxInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['sandbox-info'] as const,
    queryFn: ({ signal }) => getSandboxInfo(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

/** null while unknown (loading or failed): callers then show no controls and load nothing from outside. */
export function useSandboxInfo(): SandboxInfo | null {
  return useQuery(sandboxInfoQueryOptions()).data ?? null;
}
