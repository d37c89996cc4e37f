import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AD_ANIMATION_MS } from '#shared/constants';
import type { AdDayStats, PublicAd, StaffAd } from '#shared/schemas/ads';
import { configureApiClient } from '#web/lib/api-client';
import { startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { forgetAds } from '../api/get-ad';
import { resetAdsStore, useAdsStore } from '../stores/ads-store';
import { AdSlot } from './ad-slot';
import { AdsManager } from './ads-manager';

const AD: PublicAd = {
  _id: '0b5f3a4e-1111-4222-8333-444455556666',
  placement: 'home-banner',
  kind: 'text',
  title: 'Hardware wallets, 20% off',
  body: 'Keep your keys offline.',
  imageUrl: null,
  imageAlt: '',
  displayHost: 'wallets.example.com',
  clickUrl: '/api/ads/0b5f3a4e-1111-4222-8333-444455556666/click',
};

/** Stands in for the browser's IntersectionObserver (jsdom does no layout). */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  unobserve() {}
  disconnect() {}
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
  show(ratio: number) {
    this.callback(
      this.targets.map((target) => ({ target, intersectionRatio: ratio, isIntersecting: ratio > 0 }) as IntersectionObserverEntry),
      this as unknown as IntersectionObserver,
    );
  }
}

let server: ScriptedApiServer;
const impressionCalls = () => server.requests.filter((r) => r.method === 'POST' && r.path === `/api/ads/${AD._id}/impression`);

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  localStorage.clear();
  resetAdsStore();
  forgetAds();
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  configureApiClient(null);
});

describe('AdSlot', () => {
  it('shows the placement’s ad, labelled, through the tracked link, animated for 800 ms', async () => {
    server.on('GET', '/api/ads', { body: { ad: AD } });
    render(<AdSlot placement="home-banner" />);
    const slot = await screen.findByRole('region', { name: 'Sponsored' });
    expect(server.requests[0]!.path).toBe('/api/ads');
    expect(within(slot).getByText('Ad · Sponsored')).toBeTruthy();
    const link = within(slot).getByRole('link', { name: /Hardware wallets, 20% off/ });
    expect(link.getAttribute('href')).toBe(AD.clickUrl);
    expect(link.getAttribute('rel')).toContain('sponsored');
    expect(within(slot).getByText('wallets.example.com')).toBeTruthy();
    expect(AD_ANIMATION_MS).toBe(800);
    expect(slot.style.getPropertyValue('--ad-animation-ms')).toBe('800ms');
  });

  it('records one impression once half of it has been on screen for a second', async () => {
    server.on('GET', '/api/ads', { body: { ad: AD } });
    server.on('POST', `/api/ads/${AD._id}/impression`, { body: { recorded: true } });
    render(<AdSlot placement="home-banner" />);
    await screen.findByRole('region', { name: 'Sponsored' });
    await waitFor(() => expect(FakeIntersectionObserver.instances.at(-1)?.targets).toHaveLength(1));
    const observer = FakeIntersectionObserver.instances.at(-1)!;

    observer.show(0.6);
    await new Promise((r) => setTimeout(r, 600));
    expect(impressionCalls()).toHaveLength(0);
    await waitFor(() => expect(impressionCalls()).toHaveLength(1));
    await waitFor(() => expect(useAdsStore.getState().impressions[AD._id]).toBeTypeOf('number'));
  });

  it('shows an image ad with our copy of its picture, and never loads an image from anywhere else', async () => {
    const imageAd: PublicAd = {
      ...AD,
      kind: 'image',
      imageUrl: '/api/ads/images/7c0e5a55-2222-4333-8444-555566667777',
      imageAlt: 'A hardware wallet',
    };
    server.on('GET', '/api/ads', { body: { ad: imageAd } });
    const ours = render(<AdSlot placement="home-banner" />);
    const slot = await screen.findByRole('region', { name: 'Sponsored' });
    expect(within(slot).getByRole('img', { name: 'A hardware wallet' }).getAttribute('src')).toBe(imageAd.imageUrl);
    ours.unmount();
    forgetAds();

    // An advertiser's address (an older server, a bug) is not loaded: the ad shows without its picture.
    server.on('GET', '/api/ads', { body: { ad: { ...imageAd, imageUrl: 'https://img.advertiser.example/wallet.png' } } });
    render(<AdSlot placement="home-banner" />);
    const other = await screen.findByRole('region', { name: 'Sponsored' });
    expect(within(other).getByText('Hardware wallets, 20% off')).toBeTruthy();
    expect(within(other).queryByRole('img')).toBeNull();
  });

  it('shows nothing when no ad is live or ads cannot be loaded', async () => {
    server.on('GET', '/api/ads', { body: { ad: null } });
    const { container, unmount } = render(<AdSlot placement="home-banner" />);
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(container.innerHTML).toBe('');
    unmount();
    // One answer serves a placement for a minute; the next visit asks again.
    forgetAds();

    server.on('GET', '/api/ads', { status: 500, body: { error: 'Internal error', code: 'INTERNAL' } });
    const failed = render(<AdSlot placement="home-banner" />);
    await waitFor(() => expect(server.requests).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(failed.container.innerHTML).toBe('');
  });
});

describe('AdsManager (staff)', () => {
  const staffAd: StaffAd = {
    _id: AD._id,
    placement: 'home-banner',
    kind: 'text',
    title: AD.title,
    body: AD.body,
    imageUrl: null,
    imageAlt: '',
    targetUrl: 'https://wallets.example.com/offer',
    startsAt: null,
    endsAt: null,
    weight: 1,
    active: true,
    live: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
  const day: AdDayStats = { adId: AD._id, day: '2026-11-02', impressions: 5, uniqueViewers: 4, clicks: 1, clickThroughRate: 0.2 };

  it('shows impressions, unique viewers, clicks and click-through per ad and day', async () => {
    server.on('GET', '/api/staff/ads', { body: { ads: [staffAd] } });
    server.on('GET', '/api/staff/ads/stats', { body: { stats: [day] } });
    render(<AdsManager />);
    const table = await screen.findByRole('table', { name: /per ad and day/ });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Day', 'Ad', 'Impressions', 'Unique viewers', 'Clicks', 'Click-through']);
    const row = await within(table).findByRole('row', { name: /Hardware wallets/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2026-11-02', '5', '4', '1', '20.0%']);
    expect(within(row).getByRole('rowheader').textContent).toBe(AD.title);
  });
});
