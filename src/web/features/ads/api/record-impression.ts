import type { ImpressionResponse } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/**
 * docs/product.md#api: POST /api/ads/{id}/impression with an empty payload. Called by the ads store
 * (stores/ads-store.ts), which keeps the 30-minute window per browser, not by a query hook: the ad
 * slot stays outside TanStack Query for the home page's budget (docs/decisions/0093).
 */
export function recordImpression(adId: string): Promise<ImpressionResponse> {
  return api.post<ImpressionResponse>(`/api/ads/${encodeURIComponent(adId)}/impression`);
}
