import { useSyncExternalStore } from 'react';
import type { AdForPlacementResponse, AdPlacement, PublicAd } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** GET /api/ads?placement=…: the live ad for one placement, or none (docs/product.md#api). */
export function getAd(placement: AdPlacement): Promise<AdForPlacementResponse> {
  return api.get<AdForPlacementResponse>(`/api/ads?placement=${encodeURIComponent(placement)}`);
}

/** How long one answer serves every slot of a placement (as a query's staleTime would). */
const AD_FRESH_MS = 60_000;

/** `ad` undefined while the answer is on its way; null when there is no ad (or it could not be had). */
interface Answer {
  at: number;
  ad: PublicAd | null | undefined;
}
const answers = new Map<AdPlacement, Answer>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function ask(placement: AdPlacement): Answer {
  // An older answer stays on screen while the new one is on its way.
  const answer: Answer = { at: Date.now(), ad: answers.get(placement)?.ad };
  answers.set(placement, answer);
  getAd(placement)
    .then(
      (res) => (answer.ad = res.ad ?? null),
      // An ad is never worth an error message: a failure reads as "no ad".
      () => (answer.ad = null),
    )
    .finally(() => listeners.forEach((l) => l()));
  return answer;
}

/**
 * The one read in the browser that does not go through TanStack Query (docs/decisions/0093): the ad
 * renders on the home page, whose first load has a budget the query library would break, and it needs
 * none of its features (no polling, no mutation, no error to show). One answer per placement serves
 * every slot for a minute.
 */
export function useAd(placement: AdPlacement): PublicAd | null | undefined {
  return useSyncExternalStore(subscribe, () => {
    const answer = answers.get(placement);
    return (answer && Date.now() - answer.at <= AD_FRESH_MS ? answer : ask(placement)).ad;
  });
}

/** Tests start from no cached answers. */
export function forgetAds(): void {
  answers.clear();
}
