import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Campaign, CampaignReport } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** GET /api/ad-campaigns: my campaigns, newest first. */
export const myCampaignsQueryOptions = () =>
  queryOptions({
    queryKey: ['ad-campaigns'],
    queryFn: ({ signal }) => api.get<{ campaigns: Campaign[] }>('/api/ad-campaigns', { signal }).then((r) => r.campaigns),
  });

export function useMyCampaigns() {
  return useQuery(myCampaignsQueryOptions());
}

/** GET /api/ad-campaigns/{id}/report (or the staff one): the campaign and its days per creative. */
export function useCampaignReport(id: string | null, staff = false, days = 30) {
  return useQuery({
    queryKey: ['ad-campaigns', id, 'report', { staff, days }],
    enabled: id !== null,
    queryFn: ({ signal }) =>
      api.get<CampaignReport>(
        `${staff ? '/api/staff/ad-campaigns' : '/api/ad-campaigns'}/${encodeURIComponent(id ?? '')}/report?days=${days}`,
        { signal },
      ),
  });
}
