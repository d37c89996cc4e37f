import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, Creative } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** POST /api/staff/ad-reviews/{id}/approve, or /reject with the reason the advertiser will read. */
export function reviewCreative({ id, reason }: { id: string; reason?: string }): Promise<{ creative: Creative; campaign: Campaign }> {
  return reason === undefined
    ? api.post(`/api/staff/ad-reviews/${encodeURIComponent(id)}/approve`)
    : api.post(`/api/staff/ad-reviews/${encodeURIComponent(id)}/reject`, { reason });
}

export function useReviewCreative() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reviewCreative,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['staff', 'ad-reviews'] }),
        client.invalidateQueries({ queryKey: ['staff', 'ad-campaigns'] }),
      ]),
  });
}
