import { expect, test } from '../support/fixtures.js';
import { contextAs, type Role } from '../support/seed.js';
import { openRoute, routesFor, sessionFor, sharedSessions, sidewaysScroll } from './routes.js';

/**
 * No page scrolls sideways on the narrowest phone (320 px), a tablet (768 px) and a wide screen
 * (1920 px), for any kind of visitor (375 and 1280 px are checked with the accessibility sweep).
 */

const ROLES: Role[] = ['signed-out', 'guest', 'user', 'staff'];

for (const width of [320, 768, 1920]) {
  test(`no route scrolls sideways at ${width} px, for any visitor`, async ({ browser, baseURL }) => {
    test.setTimeout(300_000);
    const s = await sharedSessions(baseURL!);
    const scrolls: Record<string, string> = {};
    for (const role of ROLES) {
      const { context, page } = await contextAs(browser, role, sessionFor(role, s), { width });
      for (const path of routesFor(role, s)) {
        await openRoute(page, path);
        const { overflow, sticking } = await sidewaysScroll(page);
        if (overflow > 0) scrolls[`${role} ${path}`] = `${overflow} px too wide: ${sticking}`;
      }
      await context.close();
    }
    expect(scrolls).toEqual({});
  });
}
