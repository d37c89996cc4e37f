import type {
  AdForPlacementResponse,
  AdPlacement,
  AdStatsResponse,
  CreateAdBody,
  ImpressionResponse,
  StaffAd,
  UpdateAdBody,
} from '../../../../shared/schemas/ads';
import { api } from '../../../lib/api-client';

export const adsApi = {
  forPlacement: (placement: AdPlacement, signal?: AbortSignal) =>
    api.get<AdForPlacementResponse>(`/api/ads?placement=${encodeURIComponent(placement)}`, signal ? { signal } : undefined),
  /** Spec section 7: POST /api/ads/{id}/impression with an empty payload. */
  recordImpression: (adId: string) => api.post<ImpressionResponse>(`/api/ads/${encodeURIComponent(adId)}/impression`),
};

export const staffAdsApi = {
  list: () => api.get<{ ads: StaffAd[] }>('/api/staff/ads'),
  create: (body: CreateAdBody) => api.post<{ ad: StaffAd }>('/api/staff/ads', body),
  update: (id: string, change: UpdateAdBody) => api.put<{ ad: StaffAd }>(`/api/staff/ads/${encodeURIComponent(id)}`, change),
  stats: (days: number) => api.get<AdStatsResponse>(`/api/staff/ads/stats?days=${days}`),
};
