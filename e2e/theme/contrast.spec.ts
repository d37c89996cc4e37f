import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { crashHeading, expect, quietNotificationStream, signIn, test } from '../support/fixtures.js';

/**
 * Both palettes meet WCAG AA (decision 0240): axe finds no serious or critical violation (contrast
 * among them) on the main routes, in the light and the dark theme, on a phone and a wide screen.
 */

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`).join(', ')}`);
}

const SIGNED_OUT = ['/', '/login', '/status', '/jobs'];
const SIGNED_IN = ['/dashboard', '/dashboard/settings', '/dashboard/support'];

for (const theme of ['light', 'dark'] as const) {
  for (const width of [375, 1280]) {
    test(`the main routes have no serious or critical WCAG AA violation in the ${theme} theme at ${width} px`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await quietNotificationStream(context);
      // The choice the way the app stores it; the system preference is the other one, so the choice must win.
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'dark' : 'light' });
      const found: Record<string, string[]> = {};
      const check = async (path: string) => {
        await page.goto(path);
        // Rendered: a heading in main (Support's is an h2), and not the crash screen.
        await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
        await expect(crashHeading(page)).toHaveCount(0);
        // Let lazily loaded parts (the status feed, the ad) settle before looking.
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      };
      for (const path of SIGNED_OUT) await check(path);
      const { token } = await signIn(page);
      // Past onboarding, to the dashboard itself (the onboarding screen is checked in e2e/auth/accessibility).
      const onboarding = await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
      expect(onboarding.status()).toBe(200);
      for (const path of SIGNED_IN) await check(path);
      expect(found).toEqual({});
      await context.close();
    });
  }
}
