/**
 * The ads state of docs/product.md#browser-state: impressions keyed by ad id, error, loading.
 *
 * `impressions[adId]` is when this browser last had an impression of that ad counted (ms since epoch).
 * It is also kept in local storage, so a reload within the 30-minute window sends nothing; the server
 * de-duplicates on its own as well (a second browser, a cleared storage), so this only saves requests.
 */
import { create } from 'zustand';
import { AD_IMPRESSION_WINDOW_MS } from '#shared/ad-rules';
import { recordImpression as postImpression } from '../api/record-impression';

export const AD_IMPRESSION_ERROR = 'Failed to record impression';
/** Local storage key for the remembered impressions (same naming as olympus_reward_claims). */
export const AD_IMPRESSIONS_STORAGE_KEY = 'olympus_ad_impressions';

export interface AdsState {
  impressions: Record<string, number>;
  error: string | null;
  loading: boolean;
}

export interface AdsActions {
  /** True when an impression of this ad was counted for this browser within the last 30 minutes. */
  hasRecentImpression(adId: string, now?: number): boolean;
  /**
   * Records one viewable impression unless one is recent or already on its way. Resolves true when the
   * server was asked (whatever it answered), false when nothing was sent.
   */
  recordImpression(adId: string): Promise<boolean>;
  clearError(): void;
}

export type AdsStore = AdsState & AdsActions;

function fresh(impressions: Record<string, number>, now: number): Record<string, number> {
  return Object.fromEntries(Object.entries(impressions).filter(([, at]) => typeof at === 'number' && now - at < AD_IMPRESSION_WINDOW_MS));
}

export function loadStoredImpressions(now = Date.now()): Record<string, number> {
  try {
    const raw = window.localStorage.getItem(AD_IMPRESSIONS_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? fresh(parsed as Record<string, number>, now) : {};
  } catch {
    // Unreadable or unavailable storage: start empty; the server still de-duplicates.
    return {};
  }
}

function storeImpressions(impressions: Record<string, number>): void {
  try {
    window.localStorage.setItem(AD_IMPRESSIONS_STORAGE_KEY, JSON.stringify(impressions));
  } catch {
    // Storage unavailable: the in-memory state still prevents repeats on this page.
  }
}

export const initialAdsState: AdsState = { impressions: {}, error: null, loading: false };

/** Requests on their way, so a slot re-mounting mid-request does not send a second one. */
const inFlight = new Set<string>();

export const useAdsStore = create<AdsStore>()((set, get) => ({
  ...initialAdsState,
  impressions: typeof window === 'undefined' ? {} : loadStoredImpressions(),

  hasRecentImpression(adId, now = Date.now()) {
    // Another tab may have recorded one since this page loaded: local storage is the shared memory.
    const at = get().impressions[adId] ?? loadStoredImpressions(now)[adId];
    return at !== undefined && now - at < AD_IMPRESSION_WINDOW_MS;
  },

  async recordImpression(adId) {
    if (inFlight.has(adId) || get().hasRecentImpression(adId)) return false;
    inFlight.add(adId);
    set({ loading: true, error: null });
    try {
      await postImpression(adId);
      // Counted now, or already counted in the window (`recorded: false`): either way nothing to send for 30 minutes.
      const now = Date.now();
      const impressions = fresh({ ...loadStoredImpressions(now), ...get().impressions, [adId]: now }, now);
      storeImpressions(impressions);
      set({ impressions });
    } catch {
      set({ error: AD_IMPRESSION_ERROR });
    } finally {
      inFlight.delete(adId);
      set({ loading: inFlight.size > 0 });
    }
    return true;
  },

  clearError() {
    set({ error: null });
  },
}));

/** For tests: forget everything, in memory and in storage. */
export function resetAdsStore(): void {
  inFlight.clear();
  try {
    window.localStorage.removeItem(AD_IMPRESSIONS_STORAGE_KEY);
  } catch {
    // nothing stored
  }
  useAdsStore.setState({ ...initialAdsState });
}
