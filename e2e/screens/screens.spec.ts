import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { ISOLATED_ADMIN, startServer, type IsolatedServer } from '../support/isolated-server.js';
import { movePayment, paymentProcessPath, startTopUp } from '../support/seed.js';

/**
 * The main screens, compared with committed images (README, "Accessibility and screenshot checks"):
 * home, the dashboard with data, a payment, settings, support and the staff console's view of a user,
 * at 375 and 1280 px, in both themes. A change of look is a change of these images, reviewed like code
 * (`npx playwright test e2e/screens --update-snapshots`, then look at every changed picture).
 *
 * What changes from run to run is made still: the screens have a server and database of their own (what
 * the other tests sell, advertise or count never shows here), the account has a fixed name, every date
 * the API answers is moved so that "now" is FIXED_NOW, the page's clock stands at FIXED_NOW, and what
 * stays random (ids, deposit addresses, QR codes) is masked.
 */

const FIXED_NOW = Date.parse('2026-03-02T10:00:00.000Z');
const USERNAME = 'screens_ada';
const PASSWORD = 'correct horse battery staple';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every ISO timestamp in an API answer, moved by `shift` ms and cut to the minute (seconds differ between runs). */
function shiftDates(value: Json, shift: number): Json {
  if (typeof value === 'string')
    return ISO.test(value) ? new Date(Math.floor((Date.parse(value) + shift) / 60_000) * 60_000).toISOString() : value;
  if (Array.isArray(value)) return value.map((v) => shiftDates(v, shift));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftDates(v, shift)]));
  return value;
}

interface Seeded {
  token: string;
  staffToken: string;
  userId: string;
  openPaymentPath: string;
  shift: number;
}

let server: IsolatedServer;
let seeded: Seeded;

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['post']>>, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A server of the screens' own (made again by a worker that starts over after a failure), and its data. */
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  server = await startServer({ withAdmin: true, env: { RATE_LIMITS: '0' } });
  const request = await playwright.request.newContext({ baseURL: server.url });
  // What the seeding makes lands in the minute of FIXED_NOW (it takes a few seconds).
  const shift = FIXED_NOW + 5_000 - Date.now();
  const { token } = await ok<{ token: string }>(
    await request.post('/api/register', {
      data: { username: USERNAME, email: `${USERNAME}@example.com`, password: PASSWORD, turnstileToken: 'ok' },
    }),
    201,
  );
  const auth = { authorization: `Bearer ${token}` };
  expect((await request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  const finished = await startTopUp(request, auth, 100);
  await movePayment(request, finished.providerPaymentId, 'finished');
  const open = await startTopUp(request, auth, 25);
  await ok(
    await request.post('/api/tickets', {
      data: { subject: 'Where is my deposit?', message: 'I sent BTC an hour ago and the page still says waiting.', category: 'payments' },
      headers: auth,
    }),
    201,
  );
  const me = await ok<{ user: { _id: string } }>(await request.get('/api/auth/me', { headers: auth }), 200);
  const staff = await ok<{ token: string }>(await request.post('/api/login', { data: { ...ISOLATED_ADMIN, turnstileToken: 'ok' } }), 200);
  expect(
    (await request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${staff.token}` } })).status(),
  ).toBe(200);
  seeded = { token, staffToken: staff.token, userId: me.user._id, openPaymentPath: paymentProcessPath(open), shift };
  await request.dispose();
});

test.afterAll(async () => {
  await server?.stop();
});

async function screenPage(
  browser: Browser,
  options: { width: number; theme: 'light' | 'dark'; token?: string; language?: string },
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: 900 },
    timezoneId: 'UTC',
    locale: 'en-US',
    reducedMotion: 'reduce',
  });
  await context.route('**/api/**', async (route) => {
    const response = await route.fetch().catch(() => null);
    if (!response) return route.abort().catch(() => undefined);
    if (!(response.headers()['content-type'] ?? '').includes('application/json')) return route.fulfill({ response });
    return route.fulfill({ response, json: shiftDates((await response.json()) as Json, seeded.shift) });
  });
  // Registered last, so it is asked first: the bell polls instead of holding a stream open.
  await context.route('**/api/notifications/stream*', (route) => route.fulfill({ status: 204, body: '' }));
  await context.addInitScript(
    ({ theme, token, language }) => {
      window.localStorage.setItem('theme', theme);
      if (language) window.localStorage.setItem('locale', language);
      if (token && !window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('userType', 'user');
      }
    },
    { theme: options.theme, token: options.token, language: options.language },
  );
  const page = await context.newPage();
  await page.clock.setFixedTime(FIXED_NOW);
  return page;
}

/**
 * Scrolls the page down a screen at a time, each position drawn for two frames (an intersection
 * observer's callback runs after a frame), so sections that load when scrolled near start loading.
 */
async function scrollThrough(page: Page): Promise<void> {
  for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 600) {
    await page.evaluate(
      (top) =>
        new Promise<void>((drawn) => {
          window.scrollTo(0, top);
          requestAnimationFrame(() => requestAnimationFrame(() => drawn()));
        }),
      y,
    );
  }
}

/** What differs between two runs of the same screen even with the dates made still. */
const masked = (page: Page) => [
  page.locator('code'),
  // Ticket numbers count every ticket of the run; "last seen" moves with the test's own requests.
  page.locator('.session-meta, td[data-label="Last seen"]'),
  page.locator('td, li, a, span', { hasText: /^#\d{3,}\b/ }),
  page.locator('.ad-slot'),
  page.locator('.payment-qr, .deposit-qr'),
  page.locator('[data-testid="payment-countdown"]'),
];

const SCREENS: Array<{ name: string; staff?: boolean; signedOut?: boolean; path: () => string; ready: (page: Page) => Promise<void> }> = [
  {
    name: 'home',
    signedOut: true,
    path: () => '/',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
  {
    name: 'dashboard',
    path: () => '/dashboard',
    ready: async (page) => {
      await expect(page.getByTestId('credit-balance')).toHaveText('97.00');
      await expect(page.getByRole('navigation', { name: 'Dashboard shortcuts' })).toBeVisible();
    },
  },
  {
    name: 'wallet',
    path: () => '/dashboard/wallet',
    ready: async (page) => {
      await expect(page.getByTestId('credit-balance')).toHaveText('97.00');
      await expect(page.getByRole('link', { name: /^Receipt/ }).first()).toBeVisible();
    },
  },
  {
    name: 'exchanges',
    path: () => '/dashboard/exchanges',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeVisible();
      await expect(page.getByTestId('exchange-range')).toBeVisible();
    },
  },
  {
    name: 'payment',
    path: () => seeded.openPaymentPath,
    ready: async (page) => {
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.payment-qr svg')).toBeVisible();
    },
  },
  {
    name: 'settings',
    path: () => '/dashboard/settings/security',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Active sessions' })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    },
  },
  {
    name: 'support',
    path: () => '/dashboard/support',
    ready: async (page) => {
      await expect(page.getByText('Where is my deposit?').first()).toBeVisible();
    },
  },
  {
    name: 'staff-user',
    staff: true,
    path: () => `/dashboard/staff/users/${seeded.userId}`,
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: new RegExp(USERNAME) }).first()).toBeVisible();
      await expect(page.getByTestId('admin-user-balance')).toContainText('97.00');
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    },
  },
];

for (const screen of SCREENS) {
  for (const width of [375, 1280]) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${screen.name} at ${width} px, ${theme}`, async ({ browser }) => {
        const token = screen.signedOut ? undefined : screen.staff ? seeded.staffToken : seeded.token;
        const page = await screenPage(browser, { width, theme, ...(token ? { token } : {}) });
        await page.goto(`${server.url}${screen.path()}`);
        await screen.ready(page);
        // Sections that load when scrolled near (the exchange) load before the full-page picture.
        await scrollThrough(page);
        await expect(page.getByText('Loading the exchange…')).toHaveCount(0);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => document.fonts.ready);
        await expect(page).toHaveScreenshot(`${screen.name}-${width}-${theme}.png`, {
          fullPage: true,
          animations: 'disabled',
          caret: 'hide',
          mask: masked(page),
          maxDiffPixelRatio: 0.002,
        });
        await page.context().close();
      });
    }
  }
}

/**
 * The same screens in other languages, light, written to docs/screenshots/<language>/ for people to look
 * at, not compared: `SCREENS_LANGUAGES=es,de npx playwright test e2e/screens -g "in es|in de"`
 * (docs/translating.md). Not part of `npm test`, which compares the English images above.
 */
const LANGUAGES = (process.env.SCREENS_LANGUAGES ?? '').split(',').filter(Boolean);
/** Sign-up and the shop complete the main journeys in the languages' pictures. */
const ALSO_IN_LANGUAGES: typeof SCREENS = [
  { name: 'register', signedOut: true, path: () => '/register', ready: async () => {} },
  { name: 'shop', path: () => '/dashboard/shop', ready: async () => {} },
];
for (const language of LANGUAGES) {
  for (const screen of [...SCREENS, ...ALSO_IN_LANGUAGES]) {
    for (const width of [375, 1280]) {
      test(`${screen.name} at ${width} px in ${language}`, async ({ browser }) => {
        const token = screen.signedOut ? undefined : screen.staff ? seeded.staffToken : seeded.token;
        const page = await screenPage(browser, { width, theme: 'light', language, ...(token ? { token } : {}) });
        await page.goto(`${server.url}${screen.path()}`);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
        await scrollThrough(page);
        // Loading statuses end with an ellipsis in every language.
        await expect(page.locator('main [role=status]').filter({ hasText: /…$/ })).toHaveCount(0, { timeout: 20_000 });
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({
          path: `docs/screenshots/${language}/${screen.name}-${width}.jpg`,
          type: 'jpeg',
          quality: 70,
          fullPage: true,
          animations: 'disabled',
          caret: 'hide',
        });
        await page.context().close();
      });
    }
  }
}
