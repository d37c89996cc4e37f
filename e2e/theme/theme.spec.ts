import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { registerPastOnboarding } from '../support/seed.js';

/**
 * Light, dark and system themes (decision 0240): chosen in settings or with the header button,
 * remembered on the device, and on the page before its first paint, by an inline script the
 * Content-Security-Policy allows by its hash.
 */

// The palette is read right after each switch, as a visitor with the browser's default motion setting
// sees it (the suite's default is reduced motion, where every colour change takes a 0.01 ms transition
// and shows a frame later).
test.use({ reducedMotion: 'no-preference' });

const LIGHT_BG = 'rgb(245, 247, 251)';
const DARK_BG = 'rgb(11, 16, 32)';

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const themeAttribute = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

/**
 * Records, in the page, the theme when <body> first exists (before anything in it can be painted) and
 * the body's background at DOMContentLoaded, and every CSP violation.
 */
async function recordFirstPaint(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (w.__cspViolations as string[]).push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    const observer = new MutationObserver(() => {
      if (!document.body || '__themeAtBody' in w) return;
      w.__themeAtBody = document.documentElement.dataset.theme ?? null;
      w.__schemeMetaAtBody = document.querySelector('meta[name=color-scheme]')?.getAttribute('content') ?? null;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', () => {
      w.__backgroundAtDomReady = getComputedStyle(document.body).backgroundColor;
    });
  });
}

const firstPaint = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { theme: w.__themeAtBody, scheme: w.__schemeMetaAtBody, background: w.__backgroundAtDomReady, csp: w.__cspViolations };
  });

test('Light chosen in settings is there again after a reload, from the first paint on', async ({ page, consoleErrors }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page);
  await recordFirstPaint(page);
  await page.goto('/dashboard/settings/account');
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: /^System/ })).toBeChecked();
  expect(await bodyBackground(page)).toBe(DARK_BG);

  await theme.getByRole('radio', { name: /^Light/ }).check();
  expect(await themeAttribute(page)).toBe('light');
  expect(await bodyBackground(page)).toBe(LIGHT_BG);

  await page.reload();
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: /^Light/ })).toBeChecked();
  // The inline script ran before <body> was parsed, and the first styled frame was already light.
  expect(await firstPaint(page)).toEqual({ theme: 'light', scheme: 'light', background: LIGHT_BG, csp: [] });
  expect(consoleErrors).toEqual([]);
});

test('the header button switches the palette and the choice is remembered', async ({ page, consoleErrors }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await recordFirstPaint(page);
  await page.goto('/');
  expect(await bodyBackground(page)).toBe(DARK_BG);
  expect((await firstPaint(page)).csp).toEqual([]);

  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'Switch to light theme' }).click();
  expect(await bodyBackground(page)).toBe(LIGHT_BG);
  await expect(header.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();

  await page.reload();
  expect(await firstPaint(page)).toEqual({ theme: 'light', scheme: 'light', background: LIGHT_BG, csp: [] });
  await header.getByRole('button', { name: 'Switch to dark theme' }).click();
  expect(await bodyBackground(page)).toBe(DARK_BG);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  expect(consoleErrors).toEqual([]);
});

test('on a phone the theme button is a row of the header menu', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Switch to dark theme' })).toBeHidden();
  await header.getByRole('button', { name: 'Menu' }).click();
  await header.getByRole('button', { name: 'Switch to dark theme' }).click();
  expect(await bodyBackground(page)).toBe(DARK_BG);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('System follows the device, also while the page is open', async ({ page }) => {
  await signIn(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/dashboard/settings/account');
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: /^System/ })).toBeChecked();
  expect(await themeAttribute(page)).toBe('system');
  expect(await bodyBackground(page)).toBe(LIGHT_BG);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();

  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await bodyBackground(page)).toBe(DARK_BG);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Switch to light theme' })).toBeVisible();

  // An explicit choice wins over the device; going back to System follows it again.
  const theme = page.getByRole('group', { name: 'Theme' });
  await theme.getByRole('radio', { name: /^Light/ }).check();
  expect(await bodyBackground(page)).toBe(LIGHT_BG);
  await theme.getByRole('radio', { name: /^System/ }).check();
  expect(await bodyBackground(page)).toBe(DARK_BG);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
});

test('signing out clears the stored theme with the rest of local storage: the page follows the device again', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page);
  await page.goto('/dashboard/settings/account');
  await page
    .getByRole('group', { name: 'Theme' })
    .getByRole('radio', { name: /^Light/ })
    .check();
  await page
    .getByRole('banner')
    .getByRole('button', { name: /Account/ })
    .click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await bodyBackground(page)).toBe(DARK_BG);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
});

test("the file button of a ticket's reply follows the dark palette, not the system's light button", async ({ page, request }) => {
  const { token, auth } = await registerPastOnboarding(request, 'filebtn');
  const created = await request.post('/api/tickets', {
    data: { subject: 'A file to attach', message: 'Here comes a screenshot.', category: 'general' },
    headers: auth,
  });
  expect(created.status()).toBe(201);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
  await page.goto('/dashboard/support');
  await page.getByRole('link', { name: /A file to attach/ }).click();
  const input = page.locator('input[type=file]');
  await expect(input).toBeAttached();
  const colours = await input.evaluate((el) => {
    const button = getComputedStyle(el, '::file-selector-button');
    const probe = document.createElement('div');
    probe.style.background = 'var(--surface-2)';
    probe.style.color = 'var(--text)';
    document.body.append(probe);
    const tokens = getComputedStyle(probe);
    const answer = { background: button.backgroundColor, color: button.color, surface: tokens.backgroundColor, text: tokens.color };
    probe.remove();
    return answer;
  });
  expect(await bodyBackground(page)).toBe(DARK_BG);
  expect(colours.background).toBe(colours.surface);
  expect(colours.color).toBe(colours.text);
});
