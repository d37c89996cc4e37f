import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * Collects what would show up red in the browser console: uncaught exceptions and console.error
 * calls. An API call that the server refuses with a 4xx (e.g. a signed-out visitor's session check)
 * makes Chromium log "Failed to load resource"; that is the API doing its job, not a page fault, so
 * only those are left out. A 5xx, a failed script or any JavaScript error still counts.
 */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const url = message.location().url;
    const refusedApiCall = /status of 4\d\d/.test(text) && new URL(url || 'http://x/').pathname.startsWith('/api/');
    if (!refusedApiCall) errors.push(`${text}${url ? ` (${url})` : ''}`);
  });
  return errors;
}

/**
 * The notification bell holds a server-sent events stream open on every signed-in page, so the network
 * is never idle. Tests that wait for an idle network (and every test that does not check notifications)
 * get an empty answer instead: the bell falls back to polling, and nothing else changes.
 */
export async function quietNotificationStream(context: BrowserContext): Promise<void> {
  await context.route('**/api/notifications/stream*', (route) => route.fulfill({ status: 204, body: '' }));
}

export const test = base.extend<{ consoleErrors: string[]; liveNotifications: boolean }>({
  liveNotifications: [false, { option: true }],
  context: async ({ context, liveNotifications }, use) => {
    if (!liveNotifications) await quietNotificationStream(context);
    await use(context);
  },
  consoleErrors: async ({ page }, use) => {
    await use(watchConsole(page));
  },
});

export { expect };

/** The crash screen of docs/product.md#routes. */
export const crashHeading = (page: Page) => page.getByRole('heading', { name: 'Something went wrong' });

/** Waits until the route's page (a lazily loaded chunk) has rendered its main heading. */
export async function expectPageRendered(page: Page): Promise<void> {
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(crashHeading(page)).toHaveCount(0);
}

/**
 * The page has finished what it loads on its own: no "Loading…" status left in main (the exchange panel's
 * placeholder aside: it loads only as the visitor scrolls to it), the document and its fonts loaded.
 * What a test waits for instead of the network going quiet (docs/decisions/0300-the-test-suite.md).
 */
export async function settled(page: Page): Promise<void> {
  // A page may send the visitor on with a full load (a signed-out visitor's 401 goes to /login): then
  // the page it lands on is the one to wait for, from its start.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await page.waitForLoadState('load');
      await expect(
        page
          .locator('main [role=status]')
          .filter({ hasText: /^Loading/ })
          .filter({ hasNotText: 'Loading the exchange' }),
        'everything the page loads on its own is in',
      ).toHaveCount(0, { timeout: 20_000 });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      return;
    } catch (err) {
      if (attempt >= 2 || !/Execution context was destroyed|navigat/i.test(String(err))) throw err;
    }
  }
}

/** Registers a fresh account through the API (the sandbox bot check accepts any token but 'sandbox-fail'). */
export async function registerUser(page: Page): Promise<{ token: string; username: string }> {
  const username = `e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await page.request.post('/api/register', {
    data: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  return { token, username };
}

/** Signs the browser in the way the app itself does after login: the token in local storage. */
export async function signIn(page: Page): Promise<{ token: string; username: string }> {
  const account = await registerUser(page);
  await page.addInitScript((token) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('userType', 'user');
  }, account.token);
  return account;
}
