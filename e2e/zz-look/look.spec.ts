import { test } from '@playwright/test';
import { staffPage } from '../support/staff-login.js';

// Temporary: screenshots of the changed staff screens for a person to look at (not committed).
const shots = [
  ['sla', '/dashboard/staff/sla'],
  ['reports', '/dashboard/staff/reports'],
  ['automation', '/dashboard/staff/automation'],
  ['tickets', '/dashboard/staff/tickets'],
  ['campaigns', '/dashboard/staff/ad-campaigns'],
  ['review', '/dashboard/staff/ad-review'],
] as const;

for (const width of [375, 1280]) {
  test(`look at ${width}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await staffPage(browser, 'admin');
    await page.setViewportSize({ width, height: 900 });
    for (const [name, url] of shots) {
      await page.goto(url);
      await page.waitForTimeout(1500);
      await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: true });
    }
  });
}
