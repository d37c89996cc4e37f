import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AD_IMPRESSION_WINDOW_MS } from '#shared/schemas/ads';
import { configureApiClient } from '#web/lib/api-client';
import { startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { AD_IMPRESSION_ERROR, AD_IMPRESSIONS_STORAGE_KEY, loadStoredImpressions, resetAdsStore, useAdsStore } from './ads-store';

const AD = '0b5f3a4e-1111-4222-8333-444455556666';
const OTHER = '0b5f3a4e-1111-4222-8333-777788889999';
let server: ScriptedApiServer;
const ads = () => useAdsStore.getState();
const impressionCalls = (id = AD) => server.requests.filter((r) => r.method === 'POST' && r.path === `/api/ads/${id}/impression`);

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  localStorage.clear();
  resetAdsStore();
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => configureApiClient(null));

describe('ads store (docs/product.md#browser-state: impressions keyed by ad id, error, loading)', () => {
  it('starts empty, not loading, without an error', () => {
    expect(ads()).toMatchObject({ impressions: {}, error: null, loading: false });
  });

  it('records an impression with an empty POST, is loading meanwhile, and remembers it by ad id', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true }, delayMs: 30 });
    const pending = ads().recordImpression(AD);
    expect(ads().loading).toBe(true);
    expect(await pending).toBe(true);
    expect(ads().loading).toBe(false);
    expect(ads().error).toBeNull();
    expect(Object.keys(ads().impressions)).toEqual([AD]);
    expect(impressionCalls()).toHaveLength(1);
    expect(impressionCalls()[0]!.body).toBeUndefined();
  });

  it('sends nothing again within 30 minutes, even after a reload (local storage)', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true } });
    await ads().recordImpression(AD);
    // A reload: the store's memory is gone, local storage is not.
    useAdsStore.setState({ impressions: loadStoredImpressions() });
    expect(await ads().recordImpression(AD)).toBe(false);
    expect(impressionCalls()).toHaveLength(1);
  });

  it('sends again once 30 minutes have passed', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true } });
    const old = Date.now() - AD_IMPRESSION_WINDOW_MS - 1000;
    localStorage.setItem(AD_IMPRESSIONS_STORAGE_KEY, JSON.stringify({ [AD]: old }));
    useAdsStore.setState({ impressions: loadStoredImpressions() });
    expect(ads().impressions).toEqual({});
    expect(await ads().recordImpression(AD)).toBe(true);
    expect(impressionCalls()).toHaveLength(1);
  });

  it('sends one request when the same ad reports twice at once', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true }, delayMs: 30 });
    const [first, second] = await Promise.all([ads().recordImpression(AD), ads().recordImpression(AD)]);
    expect([first, second]).toEqual([true, false]);
    expect(impressionCalls()).toHaveLength(1);
  });

  it('also remembers an impression the server had already counted (recorded: false)', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: false } });
    await ads().recordImpression(AD);
    expect(ads().hasRecentImpression(AD)).toBe(true);
    expect(ads().error).toBeNull();
  });

  it('sets "Failed to record impression" when the call fails, and tries again next time', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, {
      status: 429,
      body: { error: 'Too many requests. Try again in 5 seconds.', code: 'RATE_LIMITED' },
    });
    await ads().recordImpression(AD);
    expect(ads()).toMatchObject({ error: AD_IMPRESSION_ERROR, loading: false, impressions: {} });
    expect(AD_IMPRESSION_ERROR).toBe('Failed to record impression');

    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true } });
    await ads().recordImpression(AD);
    expect(ads().error).toBeNull();
    expect(impressionCalls()).toHaveLength(2);
  });

  it('keeps ads apart', async () => {
    server.on('POST', `/api/ads/${AD}/impression`, { body: { recorded: true } });
    server.on('POST', `/api/ads/${OTHER}/impression`, { body: { recorded: true } });
    await ads().recordImpression(AD);
    await ads().recordImpression(OTHER);
    expect(Object.keys(ads().impressions).sort()).toEqual([AD, OTHER].sort());
    expect(JSON.parse(localStorage.getItem(AD_IMPRESSIONS_STORAGE_KEY)!)).toHaveProperty(OTHER);
  });
});
