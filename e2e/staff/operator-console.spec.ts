import { expect, registerUser, test } from '../support/fixtures.js';
import { skipOnboarding, staffPage } from '../support/staff-login.js';

test('an admin finds a user, adds 10.00 credits with a reason, and the user and the audit log show it', async ({ page, browser, consoleErrors }) => {
  const account = await registerUser(page);

  const admin = await staffPage(browser, 'admin');
  await admin.getByRole('link', { name: 'Staff console' }).click();
  await expect(admin.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Users' }).click();
  await admin.getByLabel('Search users').fill(account.username);
  await admin.getByRole('button', { name: 'Search' }).click();
  await admin.getByRole('button', { name: account.username, exact: true }).click();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('0.00 credits');

  await admin.getByLabel('Amount (credits, negative to deduct)').fill('10.00');
  await admin.getByLabel('Reason', { exact: true }).fill('Goodwill for a slow deposit');
  await admin.getByRole('button', { name: 'Apply adjustment' }).click();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('10.00 credits');
  const ledger = admin.getByRole('table', { name: 'Ledger entries' });
  await expect(ledger.getByRole('row').filter({ hasText: 'Goodwill for a slow deposit' })).toContainText('+10.00');

  // A negative balance is refused with a clear message.
  await admin.getByLabel('Amount (credits, negative to deduct)').fill('-50');
  await admin.getByLabel('Reason', { exact: true }).fill('Claw back too much');
  await admin.getByRole('button', { name: 'Apply adjustment' }).click();
  await expect(admin.getByRole('alert').filter({ hasText: 'Not enough credits' })).toBeVisible();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('10.00 credits');

  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Audit log' }).click();
  await admin.getByLabel('Search the audit log').fill('Goodwill for a slow deposit');
  await admin.getByRole('button', { name: 'Search' }).click();
  const row = admin.getByRole('table', { name: 'Audit entries' }).getByRole('row').filter({ hasText: 'credits.adjusted' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('e2e_admin');
  await admin.context().close();

  // The user sees the new balance on their dashboard.
  await page.addInitScript((token) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('userType', 'user');
  }, account.token);
  await page.goto('/dashboard');
  await skipOnboarding(page);
  await expect(page.getByTestId('credit-balance')).toHaveText('10.00');
  expect(consoleErrors).toEqual([]);
});

test('support sees the console but not the admin actions', async ({ browser }) => {
  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff/users');
  await support.getByLabel('Search users').fill('e2e_admin');
  await support.getByRole('button', { name: 'Search' }).click();
  await support.getByRole('button', { name: 'e2e_admin', exact: true }).click();
  await expect(support.getByRole('heading', { name: 'e2e_admin' })).toBeVisible();
  await expect(support.getByRole('button', { name: 'Apply adjustment' })).toHaveCount(0);
  await expect(support.getByRole('button', { name: /Disable account/ })).toHaveCount(0);
  await support.context().close();
});
