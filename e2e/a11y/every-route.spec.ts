import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { contextAs, type Role } from '../support/seed.js';
import { openRoute, routesFor, sessionFor, sharedSessions, shownTheme, sidewaysScroll, switchTheme } from './routes.js';

/**
 * WCAG 2.2 AA on every route (decision 0241): axe finds no serious or critical violation on any route of
 * the route table, signed out, as a guest, as a user and as staff, on a phone (375 px) and a laptop
 * (1280 px), in the light and the dark theme. The 2.2 tag brings in the 24×24 px target-size rule.
 * One navigation per route, role and width; the theme is switched in place and axe runs again.
 * On the phone the page never scrolls sideways either.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`).join(', ')}`);
}

const ROLES: Role[] = ['signed-out', 'guest', 'user', 'staff'];
/** Routes per test, so that each test stays well inside its time on a busy machine. */
const CHUNK = 6;
/** The most routes any role has (the signed-out visitor's); checked below so no route is left out. */
const MAX_CHUNKS = 5;

for (const width of [375, 1280]) {
  for (const role of ROLES) {
    for (let chunk = 0; chunk < MAX_CHUNKS; chunk++) {
      test(`${role} at ${width} px, routes ${chunk * CHUNK + 1}-${(chunk + 1) * CHUNK}: no serious or critical WCAG 2.2 AA violation in either theme${width === 375 ? ', no sideways scroll' : ''}`, async ({
        browser,
        baseURL,
      }) => {
        test.setTimeout(600_000);
        const s = await sharedSessions(baseURL!);
        const all = routesFor(role, s);
        expect(all.length, 'every route fits in the tests made for it').toBeLessThanOrEqual(CHUNK * MAX_CHUNKS);
        const routes = all.slice(chunk * CHUNK, (chunk + 1) * CHUNK);
        if (routes.length === 0) return;
        const { context, page } = await contextAs(browser, role, sessionFor(role, s), { width, theme: 'light' });
        const found: Record<string, string[]> = {};
        const scrolls: Record<string, string> = {};
        for (const path of routes) {
          await openRoute(page, path);
          for (let i = 0; i < 2; i++) {
            if (i === 1) await switchTheme(page);
            const theme = await shownTheme(page);
            const violations = await seriousViolations(page);
            if (violations.length) found[`${path} (${theme})`] = violations;
          }
          if (width === 375) {
            const { overflow, sticking } = await sidewaysScroll(page);
            if (overflow > 0) scrolls[path] = `${overflow} px too wide: ${sticking}`;
          }
        }
        expect(found).toEqual({});
        expect(scrolls).toEqual({});
        await context.close();
      });
    }
  }
}
