import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, test as base } from '../support/fixtures.js';
import { ISOLATED_ADMIN, startServer, type IsolatedServer } from '../support/isolated-server.js';

/**
 * Ads in Chromium (docs/product.md#ads): an impression counts when at least half of the ad has been on
 * screen for one continuous second, once per viewer per ad per 30 minutes. Ads are created through the
 * staff API, signed in as the admin account the server is started with (the operator command).
 * These tests pause every home-banner ad and count one ad's impressions, so they run on a server of
 * their own: the other specs, side by side on the shared one, see the home page as visitors do.
 */
const test = base.extend<object, { adServer: IsolatedServer }>({
  adServer: [
    // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ withAdmin: true });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ adServer }, use) => use(adServer.url),
});

const TARGET = 'https://advertiser.example/landing?campaign=e2e';
const AD_SELECTOR = '[data-placement="home-banner"]';

async function adminToken(request: APIRequestContext): Promise<string> {
  const { username, password } = ISOLATED_ADMIN;
  const res = await request.post('/api/login', { data: { username, password, turnstileToken: 'ok', rememberMe: false } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Pauses every home-banner ad, then creates one fresh live ad, so each test counts only its own. */
async function freshHomeAd(request: APIRequestContext, token: string, title: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const list = (await (await request.get('/api/staff/ads', { headers })).json()) as {
    ads: { _id: string; placement: string; active: boolean }[];
  };
  for (const ad of list.ads.filter((a) => a.placement === 'home-banner' && a.active)) {
    await request.put(`/api/staff/ads/${ad._id}`, { headers, data: { active: false } });
  }
  const created = await request.post('/api/staff/ads', {
    headers,
    data: { placement: 'home-banner', kind: 'text', title, body: 'Keep your keys offline.', targetUrl: TARGET },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { ad: { _id: string } }).ad._id;
}

async function impressionsCounted(request: APIRequestContext, token: string, adId: string): Promise<number> {
  const res = await request.get(`/api/staff/ads/stats?adId=${adId}&days=1`, { headers: { authorization: `Bearer ${token}` } });
  const { stats } = (await res.json()) as { stats: { impressions: number }[] };
  return stats.reduce((sum, day) => sum + day.impressions, 0);
}

function watchImpressions(page: Page, adId: string): Request[] {
  const sent: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === `/api/ads/${adId}/impression`) sent.push(req);
  });
  return sent;
}

/** The home page with the ad rendered below the fold (a short window: the ad sits after several sections). */
async function openHomeWithAd(page: Page, adId: string) {
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto('/');
  const ad = page.locator(AD_SELECTOR);
  await expect(ad).toHaveAttribute('data-ad-id', adId);
  await expect(ad).not.toBeInViewport();
  return ad;
}

test.describe('viewable ad impressions', () => {
  // The ad's animation is part of what these tests check: motion as a visitor's browser has it by default.
  test.use({ reducedMotion: 'no-preference' });
  let token: string;

  test.beforeAll(async ({ playwright, adServer }) => {
    const request = await playwright.request.newContext({ baseURL: adServer.url });
    token = await adminToken(request);
    await request.dispose();
  });

  test('an ad in view for a second is counted once', async ({ page, request, consoleErrors }) => {
    const adId = await freshHomeAd(request, token, 'Counted once');
    const sent = watchImpressions(page, adId);
    const ad = await openHomeWithAd(page, adId);
    await expect(ad.getByText('Ad · Sponsored')).toBeAttached();

    // Out of view: nothing, however long it waits.
    await page.waitForTimeout(1500);
    expect(sent).toHaveLength(0);

    const answered = page.waitForResponse((res) => res.url().endsWith(`/api/ads/${adId}/impression`));
    await ad.scrollIntoViewIfNeeded();
    const started = Date.now();
    expect(await (await answered).json()).toEqual({ recorded: true });
    // Not before the second was up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    // Staying in view, scrolling away and back: still one.
    await page.waitForTimeout(1500);
    await page.evaluate(() => window.scrollTo(0, 0));
    await ad.scrollIntoViewIfNeeded();
    await page.waitForTimeout(1500);
    expect(sent).toHaveLength(1);
    expect(await impressionsCounted(request, token, adId)).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  test('an ad scrolled past quickly is not counted at all', async ({ page, request }) => {
    const adId = await freshHomeAd(request, token, 'Scrolled past');
    const sent = watchImpressions(page, adId);
    await openHomeWithAd(page, adId);

    // In the page itself, so the time in view is what the script says, not what the test runner adds.
    const seen = await page.evaluate(async (selector) => {
      const el = document.querySelector(selector)!;
      // Instant, not the page's smooth scrolling: the time in view must be what this script says.
      el.scrollIntoView({ block: 'center', behavior: 'instant' });
      await new Promise((r) => setTimeout(r, 400));
      const box = el.getBoundingClientRect();
      const visible = Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0)) / box.height;
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
      return visible;
    }, AD_SELECTOR);
    expect(seen).toBeGreaterThanOrEqual(0.5);

    await page.waitForTimeout(2500);
    expect(sent).toHaveLength(0);
    expect(await impressionsCounted(request, token, adId)).toBe(0);
  });

  test('reloading within 30 minutes adds nothing', async ({ page, request }) => {
    const adId = await freshHomeAd(request, token, 'Reloaded');
    const sent = watchImpressions(page, adId);
    const ad = await openHomeWithAd(page, adId);
    const answered = page.waitForResponse((res) => res.url().endsWith(`/api/ads/${adId}/impression`));
    await ad.scrollIntoViewIfNeeded();
    await answered;

    await page.reload();
    await expect(ad).toHaveAttribute('data-ad-id', adId);
    await ad.scrollIntoViewIfNeeded();
    await expect(ad).toBeInViewport({ ratio: 0.5 });
    await page.waitForTimeout(2500);
    // The browser remembers the impression: the reload sends nothing, and the count stays at one.
    expect(sent).toHaveLength(1);
    expect(await impressionsCounted(request, token, adId)).toBe(1);
  });

  test('the ad is labelled, goes through the tracked redirect, animates for 800 ms unless motion is reduced', async ({ page, request }) => {
    const adId = await freshHomeAd(request, token, 'Tracked click');
    const ad = await openHomeWithAd(page, adId);
    await ad.scrollIntoViewIfNeeded();

    const card = ad.getByRole('link', { name: /Tracked click/ });
    await expect(card).toHaveAttribute('href', `/api/ads/${adId}/click`);
    await expect(card).toHaveAttribute('rel', /sponsored/);
    const animation = await card.evaluate((el) => {
      const style = getComputedStyle(el);
      return { duration: style.animationDuration, count: style.animationIterationCount, name: style.animationName };
    });
    expect(animation).toEqual({ duration: '0.8s', count: 'infinite', name: 'ad-sheen' });

    const { violations } = await new AxeBuilder({ page }).include(AD_SELECTOR).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    await ad.getByRole('button', { name: 'Pause animation' }).click();
    await expect(ad.getByRole('button', { name: 'Play animation' })).toHaveAttribute('aria-pressed', 'true');
    expect(await card.evaluate((el) => getComputedStyle(el).animationPlayState)).toBe('paused');

    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await card.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await expect(ad.getByRole('button', { name: /animation/ })).toBeHidden();

    // The browser asks for the advertiser's page by way of our click URL. The page itself is on the
    // internet, which this machine does not reach (and the headless shell cannot stand in for a page a
    // redirect leads to), so the test ends at the request.
    const clickUrl = new URL(`/api/ads/${adId}/click`, page.url()).toString();
    const redirect = page.waitForRequest((req) => req.url() === TARGET);
    await card.click();
    expect((await redirect).redirectedFrom()?.url()).toBe(clickUrl);
    const stats = await request.get(`/api/staff/ads/stats?adId=${adId}&days=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await stats.json()) as { stats: { clicks: number }[] }).stats[0]?.clicks).toBe(1);
  });
});
