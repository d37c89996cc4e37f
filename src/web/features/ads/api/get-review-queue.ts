import { useQuery } from '@tanstack/react-query';
import type { Campaign, ReviewItem } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** GET /api/staff/ad-reviews: creatives waiting for review, oldest first. */
export function useReviewQueue() {
  return useQuery({
    queryKey: ['staff', 'ad-reviews'],
    queryFn: ({ signal }) => api.get<{ items: ReviewItem[] }>('/api/staff/ad-reviews', { signal }).then((r) => r.items),
  });
}

/** GET /api/staff/ad-campaigns: every campaign, newest first. */
export function useStaffCampaigns() {
  return useQuery({
    queryKey: ['staff', 'ad-campaigns'],
    queryFn: ({ signal }) => api.get<{ campaigns: Campaign[] }>('/api/staff/ad-campaigns', { signal }).then((r) => r.campaigns),
  });
}
