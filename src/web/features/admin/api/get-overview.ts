import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OverviewResponse } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

/** GET /api/admin/overview: sign-ups, top-ups, swaps and tickets per day. */
export function getOverview(days: number, signal?: AbortSignal): Promise<OverviewResponse> {
  return api.get<OverviewResponse>(`/api/admin/overview${toQueryString({ days })}`, { signal });
}

export const overviewQueryOptions = (days: number) =>
  queryOptions({ queryKey: adminKeys.overview(days), queryFn: ({ signal }) => getOverview(days, signal) });

export function useOverview(days: number) {
  return useQuery(overviewQueryOptions(days));
}
