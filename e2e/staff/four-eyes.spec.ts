import type { Browser, Page } from '@playwright/test';
import { expect, quietNotificationStream, registerUser, test, watchConsole } from '../support/fixtures.js';
import { skipOnboarding, staffPage } from '../support/staff-login.js';

/** Signs someone in through the login page, in a browser context of their own. */
async function signInAs(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  await quietNotificationStream(context);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await skipOnboarding(page);
  return page;
}

async function userIdOf(page: Page, token: string): Promise<string> {
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  return ((await me.json()) as { user: { _id: string } }).user._id;
}

test('a large adjustment waits for a second admin: the one who asked cannot approve it, another admin does, and the balance changes', async ({
  page,
  browser,
}) => {
  // Two admins and a customer, each signed in through the pages: longer than one person's test.
  test.setTimeout(180_000);
  const customer = await registerUser(page);
  const customerId = await userIdOf(page, customer.token);
  // The second admin: a new account that admin A makes an admin in the console.
  const second = await registerUser(page);
  const secondId = await userIdOf(page, second.token);

  const adminA = await staffPage(browser, 'admin');
  const errorsA = watchConsole(adminA);
  await adminA.goto(`/dashboard/staff/users/${secondId}`);
  await expect(adminA.getByRole('heading', { name: second.username })).toBeVisible();
  await adminA.getByLabel('Role', { exact: true }).selectOption('admin');
  await adminA.getByRole('button', { name: 'Save role' }).click();
  await expect(adminA.getByText('Role saved')).toBeVisible();

  // Admin A asks for +1000 credits: the confirmation says it goes to a second admin.
  await adminA.goto(`/dashboard/staff/users/${customerId}`);
  await expect(adminA.getByRole('heading', { name: customer.username })).toBeVisible();
  await expect(adminA.getByTestId('admin-user-balance')).toHaveText('0.00 credits');
  const waitingA = adminA.getByRole('region', { name: 'Waiting for a second admin' });
  await expect(waitingA).toContainText('No adjustment for this user is waiting.');
  await adminA.getByLabel('Amount (credits, negative to deduct)').fill('1000');
  await adminA.getByLabel('Internal reason (staff only)').fill('Bank transfer that arrived outside the crypto flow');
  await adminA.getByRole('button', { name: 'Review adjustment' }).click();
  await expect(adminA.getByTestId('adjust-needs-approval')).toContainText('a second admin must approve');
  await adminA.getByRole('button', { name: 'Send for approval: 0.00 → 1000.00' }).click();

  await expect(adminA.getByTestId('adjust-sent')).toContainText('Sent to a second admin for approval.');
  await expect(adminA.getByTestId('admin-user-balance')).toHaveText('0.00 credits');
  const requestA = waitingA.getByRole('listitem');
  await expect(requestA).toContainText('+1000.00 credits');
  await expect(requestA).toContainText('e2e_admin (you)');
  await expect(requestA.getByRole('button', { name: /^Approve/ })).toBeDisabled();
  await expect(requestA).toContainText('You asked for this one: another admin must approve it.');

  // Admin B finds it in Users and approves (no second factor on the test server's staff accounts).
  const adminB = await signInAs(browser, second.username, 'correct horse battery staple');
  const errorsB = watchConsole(adminB);
  await adminB.goto('/dashboard/staff/users');
  const waitingB = adminB.getByRole('region', { name: 'Waiting for a second admin' });
  const requestB = waitingB.getByRole('listitem').filter({ hasText: customer.username });
  await expect(requestB).toContainText('e2e_admin');
  await expect(requestB).toContainText('Bank transfer that arrived outside the crypto flow');
  await requestB.getByRole('button', { name: `Approve +1000.00 credits for ${customer.username}` }).click();
  await requestB.getByRole('button', { name: 'Approve +1000.00 credits' }).click();
  await expect(waitingB.getByRole('status')).toHaveText(`Approved: +1000.00 credits posted to the balance of ${customer.username}.`);
  await expect(waitingB.getByRole('listitem').filter({ hasText: customer.username })).toHaveCount(0);

  await adminB.goto(`/dashboard/staff/users/${customerId}`);
  await expect(adminB.getByTestId('admin-user-balance')).toHaveText('1000.00 credits');
  const ledgerRow = adminB.getByRole('table', { name: 'Ledger entries' }).getByRole('row').filter({ hasText: '+1000.00' });
  await expect(ledgerRow).toContainText('Bank transfer that arrived outside the crypto flow');

  // Admin A sees it posted too, and nothing waiting.
  await adminA.reload();
  await expect(adminA.getByTestId('admin-user-balance')).toHaveText('1000.00 credits');
  await expect(adminA.getByRole('region', { name: 'Waiting for a second admin' })).toContainText('No adjustment for this user is waiting.');

  expect(errorsA).toEqual([]);
  expect(errorsB).toEqual([]);
  await adminA.context().close();
  await adminB.context().close();
});
