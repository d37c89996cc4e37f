import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { contextAs, type Role } from '../support/seed.js';
import { openRoute, routesFor, sessionFor, sharedSessions, shownTheme, sidewaysScroll, switchTheme } from './routes.js';

/**
 * WCAG 2.2 AA on every route (decision 0241): axe finds no serious or critical violation on any route of
 * the route table, signed out, as a guest, as a user and as staff, on a phone (375 px) and a laptop
 * (1280 px), in the light and the dark theme. The 2.2 tag brings in the 24×24 px target-size rule.
 * One navigation per route, role and width; the theme is switched in place and axe's palette rules run
 * again, so both palettes meet AA contrast (decision 0240), and the stored choice wins over the system's
 * preference.
 * No page scrolls sideways at 375 and 320 px (on the phone's load) or at 1280, 768 and 1920 px (on the
 * laptop's load).
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The rules whose answer depends on the palette. The other theme is checked with these alone: the rest
 * (names, roles, structure, target size) read the same DOM in both themes, and a full axe run is the
 * largest part of this sweep's time.
 */
const PALETTE_RULES = ['color-contrast', 'link-in-text-block'];

async function seriousViolations(page: Page, only?: string[]): Promise<string[]> {
  // Only violations are read: axe skips gathering the nodes of every passed and incomplete check.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  const { violations } = await (only ? builder.withRules(only) : builder.withTags(TAGS)).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`).join(', ')}`);
}

const ROLES: Role[] = ['signed-out', 'guest', 'user', 'staff'];
/** The other widths checked for sideways scroll on the same load: the narrowest phone, a tablet, a wide screen. */
const ALSO_WIDER_OR_NARROWER: Record<number, number[]> = { 375: [320], 1280: [768, 1920] };

/** Resizes the page and waits until its layout has caught up (two animation frames). */
async function resize(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

// The chunks are independent (each opens its own context), so they spread over the workers.
test.describe.configure({ mode: 'parallel' });
/** Routes per test, so that each test stays well inside its time on a busy machine. */
const CHUNK = 6;
/** The most routes any role has (the signed-out visitor's); checked below so no route is left out. */
const MAX_CHUNKS = 5;

for (const width of [375, 1280]) {
  for (const role of ROLES) {
    for (let chunk = 0; chunk < MAX_CHUNKS; chunk++) {
      test(`${role} at ${width} px, routes ${chunk * CHUNK + 1}-${(chunk + 1) * CHUNK}: no serious or critical WCAG 2.2 AA violation in either theme, no sideways scroll at ${[width, ...ALSO_WIDER_OR_NARROWER[width]!].join(', ')} px`, async ({
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
        // The system asks for the other palette: the visitor's stored choice must win on every page.
        await page.emulateMedia({ colorScheme: 'dark' });
        let chosen: 'light' | 'dark' = 'light';
        const found: Record<string, string[]> = {};
        const scrolls: Record<string, string> = {};
        const sentOn: string[] = [];
        for (const path of routes) {
          await openRoute(page, path);
          expect(await shownTheme(page), `${path}: the stored theme, not the system's`).toBe(chosen);
          // A route that sends this visitor to another route of the list (a signed-out visitor's
          // dashboard goes to /login) shows that route's page, which is checked as itself.
          const landed = new URL(page.url()).pathname;
          if (landed !== new URL(path, baseURL).pathname && all.includes(landed)) {
            sentOn.push(`${path} → ${landed}`);
            continue;
          }
          for (let i = 0; i < 2; i++) {
            if (i === 1) chosen = await switchTheme(page);
            const theme = await shownTheme(page);
            const violations = await seriousViolations(page, i === 1 ? PALETTE_RULES : undefined);
            if (violations.length) found[`${path} (${theme})`] = violations;
          }
          // Sideways scroll at this width, then at its neighbours on the same load: the page is resized in
          // place (its layout is CSS media queries), so each route is opened once per role and width.
          for (const seen of [width, ...ALSO_WIDER_OR_NARROWER[width]!]) {
            if (seen !== width) await resize(page, seen);
            // A page still laying itself out after the resize (CI once saw 7 px with nothing sticking out,
            // on a loaded machine) gets up to 30 more frame pairs; an overflow that stays is reported.
            let { overflow, sticking } = await sidewaysScroll(page);
            for (let frame = 0; overflow > 0 && frame < 30; frame++) {
              await resize(page, seen);
              ({ overflow, sticking } = await sidewaysScroll(page));
            }
            if (overflow > 0) scrolls[`${path} at ${seen} px`] = `${overflow} px too wide: ${sticking}`;
          }
          await resize(page, width);
        }
        // As text, so that the first lines of a failure (all a CI summary keeps) name the route and the rule.
        expect(JSON.stringify(found), 'serious or critical violations by route').toBe('{}');
        expect(JSON.stringify(scrolls), 'sideways scroll by route and width').toBe('{}');
        // Only a signed-out visitor is sent on to a page of the list (to sign in first).
        if (role !== 'signed-out') expect(sentOn).toEqual([]);
        await context.close();
      });
    }
  }
}
