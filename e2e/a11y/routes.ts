import { request as playwrightRequest, type Page } from '@playwright/test';
import {
  dashboardPaths,
  paths,
  paymentPath,
  SETTINGS_SECTIONS,
  settingsPath,
  STAFF_SECTIONS,
  staffPaths,
} from '../../src/shared/routes.js';
import { crashHeading, expect, settled } from '../support/fixtures.js';
import { guestSession, seedUser, staffToken, type Role, type SeededUser } from '../support/seed.js';

/**
 * Every route of the app's route table (src/web/app/router.tsx, src/shared/routes.ts) for each kind of
 * visitor, with the data that makes the page show what it is for: a user with a finished and an open
 * top-up, a receipt and a ticket; staff on every section of the console and on a user's page.
 */

export interface Sessions {
  user: SeededUser;
  guest: { token: string; guestId: string };
  staff: string;
}

let sessions: Promise<Sessions> | undefined;

/** Made once per worker and shared by every test of that worker that asks. */
export function sharedSessions(baseURL: string): Promise<Sessions> {
  sessions ??= (async () => {
    const request = await playwrightRequest.newContext({ baseURL });
    const result = {
      user: await seedUser(request, 'sweep'),
      guest: await guestSession(request),
      staff: await staffToken(request, 'admin'),
    };
    await request.dispose();
    return result;
  })();
  return sessions;
}

/** Routes a signed-out visitor can open: every path of the route table, plus one that is not there. */
export const SIGNED_OUT_ROUTES: string[] = [
  ...Object.values(paths),
  '/status/confirm?token=not-a-real-token',
  '/status/unsubscribe?token=not-a-real-token',
  '/no-such-page',
];

export function routesFor(role: Role, s: Sessions): string[] {
  switch (role) {
    case 'signed-out':
      return SIGNED_OUT_ROUTES;
    case 'guest':
      return [paths.home, paths.dashboard, `${paths.dashboard}/support`, paths.settings];
    case 'user':
      return [
        paths.dashboard,
        dashboardPaths.wallet,
        dashboardPaths.exchanges,
        dashboardPaths.shop,
        dashboardPaths.advertise,
        dashboardPaths.referrals,
        paymentPath(s.user.finishedPaymentId),
        ...SETTINGS_SECTIONS.map((section) => settingsPath(section)),
        `${paths.dashboard}/support`,
        `${paths.dashboard}/receipts/${encodeURIComponent(s.user.receiptEntryId)}`,
        s.user.openPaymentUrl,
        `${paths.paymentComplete}?id=${encodeURIComponent(s.user.finishedPaymentId)}`,
      ];
    case 'staff':
      return [staffPaths.overview, ...STAFF_SECTIONS.map((section) => staffPaths.section(section)), staffPaths.user(s.user.userId)];
  }
}

export function sessionFor(role: Role, s: Sessions): { token?: string; guestId?: string } {
  if (role === 'guest') return s.guest;
  if (role === 'user') return { token: s.user.token };
  if (role === 'staff') return { token: s.staff };
  return {};
}

/** Opens `path` and waits until its page has rendered (a heading in main, not the crash screen) and settled. */
export async function openRoute(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // The sweep is about what the page shows, not how fast: on a loaded machine a page's first data can
  // take longer than the default wait, so this one waits as long as the page-load checks do.
  await expect(page.getByRole('main').getByRole('heading').first(), `${path}: a heading in main`).toBeVisible({ timeout: 30_000 });
  await expect(crashHeading(page), `${path}: not the crash screen`).toHaveCount(0);
  // Loading messages gone, lazily loaded parts (the status feed, the ad, tables) in.
  await settled(page);
}

/** The palette now on screen. */
export const shownTheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme as 'light' | 'dark');

/**
 * Switches the palette in place, as the header button does, and keeps the choice for the next page.
 * Returns once two frames have been drawn with it: a check read sooner once found one caption still in
 * the old palette's colour on the new palette's background.
 */
export async function switchTheme(page: Page): Promise<'light' | 'dark'> {
  const next = (await shownTheme(page)) === 'dark' ? 'light' : 'dark';
  await page.evaluate(
    (t) =>
      new Promise<void>((done) => {
        window.localStorage.setItem('theme', t);
        document.documentElement.dataset.theme = t;
        requestAnimationFrame(() => requestAnimationFrame(() => done()));
      }),
    next,
  );
  return next;
}

/** How far the page scrolls sideways, and what sticks out when it does. */
export async function sidewaysScroll(page: Page): Promise<{ overflow: number; sticking: string }> {
  return page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    const overflow = el.scrollWidth - window.innerWidth;
    // An element inside a box that clips or scrolls sideways does not widen the page, however far its
    // own box reaches: only the ones outside such a box are named.
    const clippedByAncestor = (node: Element) => {
      for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
        if (getComputedStyle(el).overflowX !== 'visible') return true;
      }
      return false;
    };
    const sticking =
      overflow > 0
        ? [...document.querySelectorAll('body *')]
            .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1 && !clippedByAncestor(node))
            .slice(-4)
            .map((node) => `${node.tagName.toLowerCase()}${node.className ? `.${String(node.className).split(' ').join('.')}` : ''}`)
            .join(', ')
        : '';
    return { overflow, sticking };
  });
}
