import AxeBuilder from '@axe-core/playwright';
import type { Locator } from '@playwright/test';
import { expect, expectPageRendered, test, settled } from '../support/fixtures.js';

/**
 * The marketing pages (docs/product.md#marketing): every marketing page renders its content with no console errors and
 * passes axe with no serious or critical violations, titled and described for search and sharing.
 * Each page is opened by address (a full load) and checked for a piece of its real content.
 */
const PAGES: { path: string; title: string; content: (main: Locator) => Locator }[] = [
  {
    path: '/',
    title: 'Crypto credits, swaps and rewards · Olympus',
    content: (m) => m.getByRole('link', { name: 'Create a free account' }),
  },
  { path: '/jobs', title: 'Jobs · Olympus', content: (m) => m.getByRole('heading', { name: 'Senior Backend Engineer, Payments' }) },
  {
    path: '/portfolio',
    title: 'Portfolio · Olympus',
    content: (m) => m.getByRole('list', { name: 'Projects' }).getByRole('article').first(),
  },
  { path: '/reviews', title: 'Reviews · Olympus', content: (m) => m.getByRole('img', { name: /Rated \d out of 5/ }).first() },
  {
    path: '/patch-notes',
    title: 'Patch Notes · Olympus',
    content: (m) => m.getByRole('list', { name: 'Releases' }).getByRole('article').first(),
  },
  { path: '/status', title: 'Status · Olympus', content: (m) => m.locator('[data-component="database"]') },
  { path: '/privacy', title: 'Privacy Policy · Olympus', content: (m) => m.getByRole('heading', { level: 2, name: 'Data we collect' }) },
  { path: '/terms', title: 'Terms of Service · Olympus', content: (m) => m.getByRole('heading', { level: 2, name: 'Credits' }) },
];

// Each test opens its own page with its own account, so they spread over the workers.
test.describe.configure({ mode: 'parallel' });

for (const { path, title, content } of PAGES) {
  test(`${path} shows its content, is titled and described, and has no serious axe violations`, async ({ page, consoleErrors }) => {
    await page.goto(path);
    await expectPageRendered(page);
    await expect(content(page.getByRole('main'))).toBeVisible();
    await expect(page).toHaveTitle(title);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length ?? 0).toBeGreaterThan(30);
    // The contact section is on every page (footer).
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Contact' })).toBeAttached();
    await settled(page);

    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}
