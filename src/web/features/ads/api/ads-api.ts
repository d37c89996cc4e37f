import type { ImpressionResponse } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

export const adsApi = {
  /** Spec section 7: POST /api/ads/{id}/impression with an empty payload. */
  recordImpression: (adId: string) => api.post<ImpressionResponse>(`/api/ads/${encodeURIComponent(adId)}/impression`),
};
