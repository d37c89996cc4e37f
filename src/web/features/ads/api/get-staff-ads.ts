import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdStatsResponse, StaffAd } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** GET /api/staff/ads and GET /api/staff/ads/stats: every ad, and impressions and clicks per ad and day. */
export async function getStaffAds(days: number, signal?: AbortSignal): Promise<{ ads: StaffAd[]; stats: AdStatsResponse['stats'] }> {
  const [list, daily] = await Promise.all([
    api.get<{ ads: StaffAd[] }>('/api/staff/ads', { signal }),
    api.get<AdStatsResponse>(`/api/staff/ads/stats?days=${days}`, { signal }),
  ]);
  return { ads: list.ads, stats: daily.stats };
}

export const staffAdsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: ['staff', 'ads', { days }],
    queryFn: ({ signal }) => getStaffAds(days, signal),
  });

export function useStaffAds(days: number) {
  return useQuery(staffAdsQueryOptions(days));
}
