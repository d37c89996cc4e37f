import { expect, registerUser, test } from '../support/fixtures.js';
import { skipOnboarding, staffPage } from '../support/staff-login.js';

test('an admin opens a user by URL, adjusts the balance through a confirmation with before and after; the customer reads the note, never the reason', async ({
  page,
  browser,
  consoleErrors,
}) => {
  const account = await registerUser(page);
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${account.token}` } });
  const userId = ((await me.json()) as { user: { _id: string } }).user._id;
  const reason = 'Internal: chargeback dispute pending with the provider';
  const note = 'Goodwill credit for the slow deposit';

  const admin = await staffPage(browser, 'admin');
  // Staff made by the operator command go straight to the dashboard, without the customer onboarding.
  await expect(admin.getByRole('button', { name: 'Skip', exact: true })).toHaveCount(0);

  // The user's page has a URL of its own: opened directly, and still there after a reload.
  await admin.goto(`/dashboard/staff/users/${userId}`);
  await expect(admin.getByRole('heading', { name: account.username })).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole('heading', { name: account.username })).toBeVisible();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('0.00 credits');

  await admin.getByLabel('Amount (credits, negative to deduct)').fill('10.00');
  await admin.getByLabel('Internal reason (staff only)').fill(reason);
  await admin.getByLabel('Note for the customer (optional)').fill(note);
  await admin.getByRole('button', { name: 'Review adjustment' }).click();

  // Nothing is applied before the confirmation, which shows the balance before and after.
  const confirmation = admin.getByTestId('adjust-confirmation');
  await expect(confirmation.getByTestId('adjust-before')).toHaveText('0.00 credits');
  await expect(confirmation.getByTestId('adjust-after')).toHaveText('10.00 credits');
  await expect(confirmation).toContainText(note);
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('0.00 credits');
  await admin.getByRole('button', { name: 'Confirm: 0.00 → 10.00' }).click();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('10.00 credits');
  const ledgerRow = admin.getByRole('table', { name: 'Ledger entries' }).getByRole('row').filter({ hasText: '+10.00' });
  await expect(ledgerRow).toContainText(note);
  await expect(ledgerRow).toContainText(reason);

  // Going below zero is refused before anything is sent.
  await admin.getByLabel('Amount (credits, negative to deduct)').fill('-50');
  await admin.getByLabel('Internal reason (staff only)').fill('Claw back too much');
  await admin.getByRole('button', { name: 'Review adjustment' }).click();
  await expect(admin.getByText('That would take the balance below zero (it is 10.00 credits)')).toBeVisible();
  await expect(admin.getByTestId('admin-user-balance')).toHaveText('10.00 credits');

  // The audit log says it in a sentence, with names.
  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(admin).toHaveURL(/\/dashboard\/staff\/audit$/);
  await admin.getByLabel('Search the audit log').fill(`${account.username}@example.com`);
  await admin.getByRole('button', { name: 'Search' }).click();
  const entry = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').filter({ hasText: 'adjusted the balance' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(
    `e2e_admin (admin) adjusted the balance of ${account.username}@example.com by +10.00 credits: 0.00 → 10.00`,
  );
  await expect(entry).toContainText('balance: 0.00 credits → 10.00 credits');
  await admin.context().close();

  // The customer sees the new balance and the note, not the internal reason.
  await page.addInitScript((token) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('userType', 'user');
  }, account.token);
  await page.goto('/dashboard');
  await skipOnboarding(page);
  await page.goto('/dashboard/wallet');
  await expect(page.getByTestId('credit-balance')).toHaveText('10.00');
  const history = page.getByRole('region', { name: 'Credit history' });
  await expect(history).toContainText(note);
  await expect(page.getByText(reason)).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('support sees the console but not the admin actions; sections have their own URLs', async ({ browser }) => {
  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff/users?q=e2e_admin');
  await support.getByRole('link', { name: 'e2e_admin', exact: true }).click();
  await expect(support).toHaveURL(/\/dashboard\/staff\/users\/[0-9a-f-]{36}$/);
  await expect(support.getByRole('heading', { name: 'e2e_admin' })).toBeVisible();
  await expect(support.getByRole('button', { name: 'Review adjustment' })).toHaveCount(0);
  await expect(support.getByRole('button', { name: /Disable account/ })).toHaveCount(0);
  // The browser's Back returns to the same search (it is in the URL).
  await support.goBack();
  await expect(support).toHaveURL(/\/dashboard\/staff\/users\?q=e2e_admin$/);
  await expect(support.getByRole('link', { name: 'e2e_admin', exact: true })).toBeVisible();
  await support.goto('/dashboard/staff/api-keys');
  await expect(support.getByRole('heading', { name: 'Nothing here' })).toBeVisible();
  await support.context().close();
});
