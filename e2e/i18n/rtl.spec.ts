import type { BrowserContext, Page } from '@playwright/test';
import { dashboardPaths, paths, settingsPath, staffPaths } from '../../src/shared/routes.js';
import { sharedSessions } from '../a11y/routes.js';
import { expect, expectPageRendered, settled, test } from '../support/fixtures.js';
import { contextAs, type Role } from '../support/seed.js';
import { layoutProblems, openMenuProblems } from './layout-checks.js';

/**
 * Right to left (docs/translating.md#right-to-left): the main pages laid out with `<html dir="rtl">`, on
 * a phone (375 px) and a laptop (1280 px), mirror (the brand sits at the right end of the header), do not
 * scroll sideways, and their header, headings, buttons and form fields neither overlap nor are clipped
 * (e2e/i18n/layout-checks.ts). The stylesheets' logical properties (scripts/check-logical-css.mjs) are
 * what makes this hold.
 */

interface RtlPage {
  name: string;
  role: Role;
  path: (s: Awaited<ReturnType<typeof sharedSessions>>) => string;
  /** Reaches the page from `path` when it has no address of its own to start from (a ticket). */
  open?: (page: Page) => Promise<void>;
}

const PAGES: RtlPage[] = [
  { name: 'home', role: 'signed-out', path: () => paths.home },
  { name: 'login', role: 'signed-out', path: () => paths.login },
  { name: 'register', role: 'signed-out', path: () => paths.register },
  { name: 'dashboard', role: 'user', path: () => paths.dashboard },
  { name: 'wallet', role: 'user', path: () => dashboardPaths.wallet },
  { name: 'top-up payment', role: 'user', path: (s) => s.user.openPaymentUrl },
  { name: 'exchange', role: 'user', path: () => dashboardPaths.exchanges },
  {
    name: 'ticket',
    role: 'user',
    path: () => dashboardPaths.support,
    open: async (page) => {
      await page.locator('a.ticket-row').first().click();
      await expect(page).toHaveURL(/\/dashboard\/support\/[^/]+$/);
    },
  },
  { name: 'settings', role: 'user', path: () => settingsPath('account') },
  { name: 'staff console', role: 'staff', path: (s) => staffPaths.user(s.user.userId) },
];

/** Every page of the context is laid out right to left from its first paint. */
async function rightToLeft(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const set = () => document.documentElement?.setAttribute('dir', 'rtl');
    set();
    document.addEventListener('readystatechange', set);
  });
}

test.describe.configure({ mode: 'parallel' });

for (const width of [375, 1280]) {
  for (const role of ['signed-out', 'user', 'staff'] as const) {
    const pages = PAGES.filter((p) => p.role === role);
    test(`${role} pages at ${width} px, right to left: mirrored, no sideways scroll, no overlapping or clipped text (${pages.map((p) => p.name).join(', ')})`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(240_000);
      const sessions = await sharedSessions(baseURL!);
      const session = role === 'staff' ? { token: sessions.staff } : role === 'user' ? { token: sessions.user.token } : {};
      const { context, page } = await contextAs(browser, role, session, { width });
      await rightToLeft(context);
      const found: Record<string, string[]> = {};
      try {
        for (const target of pages) {
          await page.goto(target.path(sessions));
          await target.open?.(page);
          await expectPageRendered(page);
          await settled(page);
          await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
          // Mirrored: the brand, first in the header, sits at its right end.
          const brand = await page.locator('header a.brand').first().boundingBox();
          expect(brand, `${target.name}: the header's brand`).not.toBeNull();
          expect(brand!.x + brand!.width / 2, `${target.name}: the brand is on the right`).toBeGreaterThan(width / 2);
          const problems = [...(await layoutProblems(page)), ...(await openMenuProblems(page))];
          if (problems.length > 0) found[target.name] = problems;
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
    });
  }
}

test('the layout checks find a sideways scroll, overlapping text and clipped text', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 600 });
  await page.setContent(`<!doctype html>
    <header><a class="brand">Olympus</a></header>
    <main>
      <h1 style="margin: 0">A heading</h1>
      <button style="position: relative; top: -30px">Sign in</button>
      <h2 style="width: 80px; overflow: hidden; white-space: nowrap">A heading far too long for its box</h2>
      <label style="position: absolute; inset-inline-start: 360px; white-space: nowrap">Off the edge of the page</label>
      <h3 style="position: absolute; width: 1px; height: 1px; overflow: hidden">Read by screen readers only</h3>
      <details><summary>More</summary><label>Inside a closed details</label></details>
    </main>`);
  const problems = await layoutProblems(page);
  const all = problems.join('\n');
  expect(
    problems.find((p) => p.startsWith('the page scrolls sideways')),
    all,
  ).toBeTruthy();
  expect(
    problems.find((p) => p.includes('"Sign in" overlaps') || p.includes('overlaps <button> "Sign in"')),
    all,
  ).toBeTruthy();
  expect(
    problems.find((p) => p.startsWith('<h2> "A heading far too long') && p.includes('clipped')),
    all,
  ).toBeTruthy();
  expect(
    problems.find((p) => p.includes('"Off the edge of the page" is outside the window')),
    all,
  ).toBeTruthy();
  expect(problems.join('\n')).not.toContain('screen readers');
  expect(problems.join('\n')).not.toContain('closed details');
});
