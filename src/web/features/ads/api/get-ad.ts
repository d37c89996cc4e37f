import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdForPlacementResponse, AdPlacement } from '../../../../shared/schemas/ads';
import { api } from '../../../lib/api-client';

/** GET /api/ads?placement=…: the live ad for one placement, or none (spec section 7). */
export function getAd(placement: AdPlacement, signal?: AbortSignal): Promise<AdForPlacementResponse> {
  return api.get<AdForPlacementResponse>(`/api/ads?placement=${encodeURIComponent(placement)}`, signal ? { signal } : undefined);
}

export const adQueryOptions = (placement: AdPlacement) =>
  queryOptions({
    queryKey: ['ads', 'placement', placement],
    queryFn: ({ signal }) => getAd(placement, signal),
    // An ad is never worth an error message or a second try: the slot just stays empty.
    retry: false,
    staleTime: 60_000,
  });

export function useAd(placement: AdPlacement) {
  return useQuery(adQueryOptions(placement));
}
