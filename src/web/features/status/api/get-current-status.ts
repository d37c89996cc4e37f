import { useQuery } from '@tanstack/react-query';
import type { CurrentStatusResponse, StatusComponentId } from '#shared/schemas/status';
import { api } from '#web/lib/api-client';

/** How often a page that uses a component asks again whether something affects it. */
export const COMPONENT_NOTICE_REFRESH_MS = 60_000;

/** GET /api/status/current: each component's state now, the open incidents and maintenance under way. */
export const getCurrentStatus = (signal?: AbortSignal) => api.get<CurrentStatusResponse>('/api/status/current', { signal });

/**
 * What affects `component` right now, for a notice before a person acts: its state and the open
 * incidents naming it (or naming no component: those concern the whole product). Asked on every visit
 * and every minute while the tab is visible; a failure shows nothing (the page itself still works).
 */
export function useComponentStatus(component: StatusComponentId) {
  const query = useQuery({
    queryKey: ['status', 'current'] as const,
    queryFn: ({ signal }) => getCurrentStatus(signal),
    staleTime: 30_000,
    refetchInterval: COMPONENT_NOTICE_REFRESH_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
  const data = query.data;
  if (!data) return null;
  const state = data.components.find((c) => c.id === component)?.state ?? 'unknown';
  const incidents = data.incidents.filter((i) => i.components.length === 0 || i.components.includes(component));
  return { state, incidents, maintenance: data.maintenance };
}
