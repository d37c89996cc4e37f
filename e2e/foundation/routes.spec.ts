import { paths } from '#shared/routes.js';
import { crashHeading, expect, expectPageRendered, signIn, test, settled } from '../support/fixtures.js';

/**
 * Every route of docs/product.md#routes, as a visitor would open it: by typing the address (a full page load
 * through the server's history fallback), then rendering its lazily loaded page.
 */
const ROUTES: { route: string; url: string }[] = [
  { route: paths.home, url: '/' },
  { route: `${paths.status}/*`, url: '/status' },
  { route: `${paths.status}/*`, url: '/status/api' },
  { route: `${paths.privacy}/*`, url: '/privacy' },
  { route: `${paths.terms}/*`, url: '/terms' },
  { route: `${paths.dashboard}/*`, url: '/dashboard' },
  { route: paths.settings, url: '/dashboard/settings' },
  { route: paths.patchNotes, url: '/patch-notes' },
  { route: paths.login, url: '/login' },
  { route: paths.register, url: '/register' },
  { route: paths.paymentProcess, url: '/payment/process' },
  { route: paths.paymentComplete, url: '/payment/complete?id=unknown-payment' },
  { route: paths.jobs, url: '/jobs' },
  { route: paths.portfolio, url: '/portfolio' },
  { route: paths.reviews, url: '/reviews' },
  { route: paths.advertise, url: '/advertise' },
  { route: `${paths.help}/*`, url: '/help' },
  { route: `${paths.help}/*`, url: '/help/payment-stuck-in-confirming' },
  { route: paths.notifications, url: '/notifications' },
  { route: paths.discordCallback, url: '/discord-callback' },
  { route: paths.telegramCallback, url: '/telegram-callback' },
  { route: paths.verifyEmail, url: '/verify-email' },
  { route: paths.forgotPassword, url: '/forgot-password' },
  { route: paths.resetPassword, url: '/reset-password' },
  { route: paths.confirmEmail, url: '/confirm-email' },
  { route: paths.unsubscribe, url: '/unsubscribe' },
];

// Each test opens its own page with its own account, so they spread over the workers.
test.describe.configure({ mode: 'parallel' });

test('the list covers every documented route', () => {
  const covered = new Set(ROUTES.map((r) => r.url.split('?')[0]));
  for (const route of Object.values(paths)) expect(covered, route).toContain(route);
});

for (const signedIn of [false, true]) {
  test.describe(signedIn ? 'signed in' : 'signed out', () => {
    for (const { url } of ROUTES) {
      test(`${url} renders without a console error`, async ({ page, consoleErrors }) => {
        if (signedIn) await signIn(page);
        const response = await page.goto(url);
        expect(response?.status()).toBe(200);
        // A page may send the visitor on (e.g. /payment/process without its query goes to /dashboard);
        // wherever it lands must render, and nothing may fail on the way.
        await expectPageRendered(page);
        await expect(page.getByRole('heading', { name: /page not found/i })).toHaveCount(0);
        await settled(page);
        await expect(crashHeading(page)).toHaveCount(0);
        expect(consoleErrors).toEqual([]);
      });
    }
  });
}

test('an unknown path shows the 404 page with a link home', async ({ page, consoleErrors }) => {
  const response = await page.goto('/no-such-page/at-all');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: /not found/i })).toBeVisible();
  const home = page.getByRole('main').getByRole('link', { name: /home/i });
  await expect(home).toBeVisible();
  await home.click();
  await expect(page).toHaveURL(/\/$/);
  await expectPageRendered(page);
  // Chromium reports the page's own 404 status in the console; that status is the point here.
  expect(consoleErrors.filter((e) => !e.includes('/no-such-page/at-all'))).toEqual([]);
});

test('a mistyped sub-path of an exact route is a 404 too', async ({ page }) => {
  const response = await page.goto('/jobs/extra');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: /not found/i })).toBeVisible();
});
