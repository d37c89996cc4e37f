import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, registerUser, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * The staff lists drawn by QueryTable (decision 0225): a user's ledger, sessions and activity, and the
 * ads manager's tables, at a phone's and a desktop's width, readable and without accessibility faults.
 */

async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const width of [375, 1280]) {
  test(`at ${width} px a user's detail shows its ledger, sessions and activity as tables, and the ads manager its two tables`, async ({
    page,
    browser,
  }) => {
    const account = await registerUser(page);
    const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${account.token}` } });
    const userId = ((await me.json()) as { user: { _id: string } }).user._id;

    const admin = await staffPage(browser, 'admin');
    await admin.setViewportSize({ width, height: 900 });
    await admin.goto(`/dashboard/staff/users/${userId}`);
    await expect(admin.getByRole('heading', { name: account.username })).toBeVisible();
    await expect(admin.getByTestId('admin-user-balance')).toHaveText('0.00 credits');
    // A new account: no ledger entries yet, one session (the registration's), no activity.
    await expect(admin.getByText('No ledger entries yet.')).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Active sessions' }).getByRole('row')).toHaveCount(2);
    await expect(admin.getByRole('region', { name: 'Recent payments' }).getByText('None.')).toBeVisible();
    await admin.screenshot({ path: `test-results/staff-lists/user-detail-${width}.png`, fullPage: true });
    await expectNoAxeViolations(admin);

    await admin.goto('/dashboard/staff/ads');
    await expect(admin.getByRole('heading', { name: 'All ads' })).toBeVisible();
    await expect(
      admin.getByRole('table', { name: 'All ads' }).or(admin.getByText('No ads yet. Create the first one above.')),
    ).toBeVisible();
    await admin.screenshot({ path: `test-results/staff-lists/ads-${width}.png`, fullPage: true });
    await expectNoAxeViolations(admin);
    await admin.context().close();
  });
}
