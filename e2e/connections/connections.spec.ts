import type { Page } from '@playwright/test';
import { expect, registerUser, signIn, test } from '../support/fixtures.js';

/**
 * Discord and Telegram connections through the sandboxes, in the browser (docs/product.md#routes, #validation, #errors).
 *
 * The providers send the browser back to PUBLIC_URL, which may be another origin than the one the
 * test server is reached at (localhost vs 127.0.0.1): the whole flow runs on the public origin, read
 * from the app itself. The signed-in token is put in every origin's storage by `signIn`.
 */

const REDIRECT_MS = 3000;
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toLowerCase();

async function publicOrigin(page: Page): Promise<string> {
  const res = await page.request.get('/api/auth/telegram/config');
  expect(res.status()).toBe(200);
  const { authUrl } = (await res.json()) as { authUrl: string };
  return new URL(authUrl).origin;
}

const row = (page: Page, provider: 'Discord' | 'Telegram') => page.getByRole('listitem', { name: provider });

async function openSettings(page: Page, origin: string) {
  await page.goto(`${origin}/dashboard/settings/connections`);
  await expect(page.getByRole('heading', { name: 'Connected accounts' })).toBeVisible();
}

async function me(page: Page, token: string) {
  const res = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  return (
    (await res.json()) as { user: { discord: { id: string; username: string } | null; telegram: { username: string | null } | null } }
  ).user;
}

/** The error view of docs/product.md#routes: "Connection Failed", the message, then /dashboard/settings (its connections section) after 3 s. */
/**
 * When the error first showed and when the app moved to the settings page, by the page's own clock
 * (an init script watches for the alert and for the history change), so a busy machine that looks late
 * cannot make the 3 seconds seem shorter or longer than the page really waited.
 */
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const times = window as unknown as { errorShownAt?: number; settingsAt?: number };
    new MutationObserver(() => {
      if (times.errorShownAt !== undefined) return;
      const alert = [...document.querySelectorAll('[role=alert]')].find((el) => el.textContent?.trim());
      if (alert) times.errorShownAt = performance.now();
    }).observe(document, { childList: true, subtree: true, characterData: true });
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        if (times.settingsAt === undefined && location.pathname.endsWith('/dashboard/settings')) times.settingsAt = performance.now();
      };
    }
  });
});

async function expectErrorViewThenSettings(page: Page, message: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Connection Failed' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: message })).toHaveText(message);
  // On the settings page once the 3 seconds are up, and not before.
  await page.waitForURL(/\/dashboard\/settings\/connections#connections$/, { timeout: REDIRECT_MS + 10_000 });
  const { errorShownAt, settingsAt } = await page.evaluate(() => {
    const times = window as unknown as { errorShownAt?: number; settingsAt?: number };
    return { errorShownAt: times.errorShownAt, settingsAt: times.settingsAt };
  });
  expect(errorShownAt, 'the error was seen on the page').toBeDefined();
  expect(settingsAt! - errorShownAt!).toBeGreaterThanOrEqual(REDIRECT_MS - 100);
  expect(settingsAt! - errorShownAt!).toBeLessThan(REDIRECT_MS + 3000);
  await expect(page.getByRole('heading', { name: 'Connected accounts' })).toBeVisible();
}

/** From the settings page through the sandbox consent screen, as a person would. */
async function approveDiscord(page: Page, discordUsername: string, decision: 'Authorize' | 'Cancel' = 'Authorize') {
  await row(page, 'Discord').getByRole('button', { name: 'Connect Discord' }).click();
  await expect(page.getByRole('heading', { name: 'Olympus wants to access your Discord account' })).toBeVisible();
  await page.getByLabel('Sandbox Discord username').fill(discordUsername);
  await page.getByRole('button', { name: decision }).click();
}

async function approveTelegram(page: Page, telegramUsername: string) {
  await row(page, 'Telegram').getByRole('button', { name: 'Connect Telegram' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Olympus with Telegram' })).toBeVisible();
  await page.getByLabel('Telegram username').fill(telegramUsername);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name (optional)').fill('Hopper');
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test.describe('Discord', () => {
  test('connect through the consent screen, then disconnect', async ({ page, consoleErrors }) => {
    const origin = await publicOrigin(page);
    const { token } = await signIn(page);
    await openSettings(page, origin);
    await expect(row(page, 'Discord')).toContainText('Not connected');

    const discordName = uniqueName('dc_');
    await approveDiscord(page, discordName);
    await expect(page.getByText('Discord account connected successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/settings\/connections#connections$/);
    await expect(row(page, 'Discord')).toContainText(`Connected as @${discordName}`);
    expect((await me(page, token)).discord?.username).toBe(discordName);

    // Disconnect asks first; keeping it changes nothing.
    await row(page, 'Discord').getByRole('button', { name: 'Disconnect' }).click();
    await row(page, 'Discord').getByRole('button', { name: 'Keep it connected' }).click();
    await expect(row(page, 'Discord')).toContainText(`Connected as @${discordName}`);

    await row(page, 'Discord').getByRole('button', { name: 'Disconnect' }).click();
    await expect(row(page, 'Discord').getByRole('button', { name: 'Yes, disconnect Discord' })).toBeFocused();
    await row(page, 'Discord').getByRole('button', { name: 'Yes, disconnect Discord' }).click();
    await expect(row(page, 'Discord')).toContainText('Not connected');
    await expect(row(page, 'Discord').getByRole('button', { name: 'Connect Discord' })).toBeVisible();
    expect((await me(page, token)).discord).toBeNull();
    // The avatar comes from Discord's CDN, which the offline test machine cannot reach: that is not a page fault.
    expect(consoleErrors.filter((e) => !e.includes('cdn.discordapp.com'))).toEqual([]);
  });

  test('a cancelled consent shows "No authorization code received from Discord" and returns to settings', async ({ page }) => {
    const origin = await publicOrigin(page);
    const { token } = await signIn(page);
    await openSettings(page, origin);
    await approveDiscord(page, uniqueName('dc_'), 'Cancel');
    await expect(page).toHaveURL(/\/discord-callback\?error=access_denied/);
    await expectErrorViewThenSettings(page, 'No authorization code received from Discord');
    expect((await me(page, token)).discord).toBeNull();
  });

  test('a code used twice shows the server\'s error ("Error: …")', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    await openSettings(page, origin);
    await approveDiscord(page, uniqueName('dc_'));
    await page.waitForURL(/\/discord-callback\?code=/);
    const callbackUrl = page.url();
    await expect(page).toHaveURL(/\/dashboard\/settings\/connections#connections$/);

    await page.goto(callbackUrl);
    await expectErrorViewThenSettings(
      page,
      'Error: This Discord authorization has expired or was already used. Please connect again from your settings.',
    );
  });

  test("a Discord account already connected to another user is refused with the server's message", async ({ page }) => {
    const origin = await publicOrigin(page);
    const discordName = uniqueName('dc_');
    // Someone else connects this Discord account first, through the same sandbox.
    const other = await registerUser(page);
    const auth = { Authorization: `Bearer ${other.token}` };
    const url = new URL(
      ((await (await page.request.get('/api/auth/discord/authorize-url', { headers: auth })).json()) as { url: string }).url,
    );
    const approve = await page.request.post(`${url.pathname}`, {
      form: { ...Object.fromEntries(url.searchParams), username: discordName, decision: 'approve' },
      maxRedirects: 0,
    });
    const back = new URL(approve.headers().location!);
    const identity = (await (
      await page.request.post('/api/auth/discord-exchange', {
        headers: auth,
        data: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      })
    ).json()) as { id: string };
    expect(
      (
        await page.request.post('/api/users/connect/discord', {
          headers: auth,
          data: { discordId: identity.id, username: discordName, avatar: null },
        })
      ).status(),
    ).toBe(200);

    const { token } = await signIn(page);
    await openSettings(page, origin);
    await approveDiscord(page, discordName);
    await expectErrorViewThenSettings(page, 'Error: This Discord account is already connected to another user.');
    expect((await me(page, token)).discord).toBeNull();
  });

  test('an exchange answer without an id shows "Invalid response from Discord authentication"', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    // The real server always answers with an id; only a broken answer (e.g. from a proxy) lacks it.
    await page.route('**/api/auth/discord-exchange', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
    );
    await page.goto(`${origin}/discord-callback?code=abc&state=def`);
    await expectErrorViewThenSettings(page, 'Invalid response from Discord authentication');
  });

  test('no answer from the server shows the no-response message', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    await page.route('**/api/auth/discord-exchange', (route) => route.abort('connectionrefused'));
    await page.goto(`${origin}/discord-callback?code=abc&state=def`);
    await expectErrorViewThenSettings(page, 'No response from server. Please check your connection.');
  });
});

test.describe('Telegram', () => {
  test('connect through the sandbox login page, then disconnect', async ({ page, consoleErrors }) => {
    const origin = await publicOrigin(page);
    const { token } = await signIn(page);
    await openSettings(page, origin);
    await expect(row(page, 'Telegram')).toContainText('Not connected');

    const telegramName = uniqueName('tg_');
    await approveTelegram(page, telegramName);
    await expect(page.getByText('Telegram account connected successfully!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/settings\/connections#connections$/);
    await expect(row(page, 'Telegram')).toContainText(`Connected as @${telegramName} (Grace Hopper)`);
    expect((await me(page, token)).telegram?.username).toBe(telegramName);

    await row(page, 'Telegram').getByRole('button', { name: 'Disconnect' }).click();
    await row(page, 'Telegram').getByRole('button', { name: 'Yes, disconnect Telegram' }).click();
    await expect(row(page, 'Telegram')).toContainText('Not connected');
    expect((await me(page, token)).telegram).toBeNull();
    expect(consoleErrors).toEqual([]);
  });

  test('missing Telegram data shows "Invalid or missing Telegram data"', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    await page.goto(`${origin}/telegram-callback?first_name=Grace`);
    await expectErrorViewThenSettings(page, 'Invalid or missing Telegram data');
  });

  test('a tampered login shows "Telegram authentication failed to verify" and connects nothing', async ({ page }) => {
    const origin = await publicOrigin(page);
    const { token } = await signIn(page);
    // The sandbox signs a real login; the name is changed before the app sees it.
    const config = (await (await page.request.get('/api/auth/telegram/config')).json()) as { sandboxLoginUrl: string };
    const login = new URL(config.sandboxLoginUrl);
    const signed = await page.request.post(login.pathname, {
      form: { ...Object.fromEntries(login.searchParams), username: uniqueName('tg_'), first_name: 'Grace' },
      maxRedirects: 0,
    });
    const callback = new URL(signed.headers().location!);
    expect(callback.searchParams.get('hash')).toMatch(/^[0-9a-f]{64}$/);
    callback.searchParams.set('first_name', 'Mallory');
    await page.goto(`${origin}${callback.pathname}${callback.search}`);
    await expectErrorViewThenSettings(page, 'Telegram authentication failed to verify');
    expect((await me(page, token)).telegram).toBeNull();
  });

  test('a server error shows "Server error: {message}"', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    await page.goto(`${origin}/telegram-callback?id=not-a-number&auth_date=1&hash=abc`);
    await expectErrorViewThenSettings(page, 'Server error: Invalid request: Invalid Telegram id');
  });

  test('no answer from the server shows the no-response message', async ({ page }) => {
    const origin = await publicOrigin(page);
    await signIn(page);
    await page.route('**/api/auth/verify-telegram', (route) => route.abort('connectionrefused'));
    await page.goto(`${origin}/telegram-callback?id=1&auth_date=1&hash=abc`);
    await expectErrorViewThenSettings(page, 'No response from server. Please check your connection.');
  });
});
