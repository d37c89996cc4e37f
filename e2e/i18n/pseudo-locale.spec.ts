import { dashboardPaths, paths, settingsPath, staffPaths } from '../../src/shared/routes.js';
import { sharedSessions } from '../a11y/routes.js';
import { expect, expectPageRendered, settled, test } from '../support/fixtures.js';
import { contextAs, type Role } from '../support/seed.js';
import { layoutProblems, openMenuProblems } from './layout-checks.js';

/**
 * The pseudo-locale on a phone (docs/translating.md#the-pseudo-locale): the screenshot pages
 * (e2e/screens/screens.spec.ts) and sign-in and registration, at 375 px with local storage `locale` set to
 * `pseudo` before the first load. Its text is about 40% longer than English, as German and Russian often
 * are; the translated parts (header, footer, sign-in, registration, the dashboard's navigation) must
 * still fit: no sideways scroll, no text overlapping or clipped (e2e/i18n/layout-checks.ts). One load per
 * page, no accessibility scan: a quick run.
 */

const PAGES: Array<{ name: string; role: Role; path: (s: Awaited<ReturnType<typeof sharedSessions>>) => string }> = [
  { name: 'home', role: 'signed-out', path: () => paths.home },
  { name: 'login', role: 'signed-out', path: () => paths.login },
  { name: 'register', role: 'signed-out', path: () => paths.register },
  { name: 'dashboard', role: 'user', path: () => paths.dashboard },
  { name: 'wallet', role: 'user', path: () => dashboardPaths.wallet },
  { name: 'exchanges', role: 'user', path: () => dashboardPaths.exchanges },
  { name: 'payment', role: 'user', path: (s) => s.user.openPaymentUrl },
  { name: 'settings', role: 'user', path: () => settingsPath('security') },
  { name: 'support', role: 'user', path: () => dashboardPaths.support },
  { name: 'staff-user', role: 'staff', path: (s) => staffPaths.user(s.user.userId) },
];

test.describe.configure({ mode: 'parallel' });

for (const role of ['signed-out', 'user', 'staff'] as const) {
  const pages = PAGES.filter((p) => p.role === role);
  test(`${role} pages in the pseudo-locale at 375 px: no sideways scroll, no overlapping or clipped text (${pages.map((p) => p.name).join(', ')})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const sessions = await sharedSessions(baseURL!);
    const session = role === 'staff' ? { token: sessions.staff } : role === 'user' ? { token: sessions.user.token } : {};
    const { context, page } = await contextAs(browser, role, session, { width: 375 });
    await context.addInitScript(() => window.localStorage.setItem('locale', 'pseudo'));
    const found: Record<string, string[]> = {};
    try {
      for (const target of pages) {
        await page.goto(target.path(sessions));
        await expectPageRendered(page);
        await settled(page);
        // settled() waits for English "Loading…" statuses; once translated, they read "[Ļöàðîñĝ…" here.
        await expect(
          page
            .locator('main [role=status]')
            .filter({ hasText: /^\[Ļöàðîñĝ/ })
            .filter({ hasNotText: /éẋçĥàñĝé/ }),
        ).toHaveCount(0, { timeout: 20_000 });
        await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
        // The header speaks the pseudo-locale: its menu button is bracketed, accented text.
        await expect(page.getByRole('banner')).toContainText('[');
        const problems = [...(await layoutProblems(page)), ...(await openMenuProblems(page))];
        if (problems.length > 0) found[target.name] = problems;
      }
    } finally {
      await context.close();
    }
    expect(found).toEqual({});
  });
}
