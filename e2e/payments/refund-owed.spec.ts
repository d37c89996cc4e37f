import { expect, signIn, test } from '../support/fixtures';
import staff from '../support/staff-accounts.json' with { type: 'json' };
import { staffPage } from '../support/staff-login.js';

/**
 * A payment refunded after its credits were spent (docs/decisions/0120): the user sees what the
 * account owes and why on the dashboard; staff see the account flagged in the console.
 */
test('a refund after the credits were spent: the user sees what is owed and why, staff see the flag', async ({
  page,
  browser,
  consoleErrors,
}) => {
  const { token, username } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  const me = await (await page.request.get('/api/auth/me', { headers: auth })).json();
  const userId = (me.user?._id ?? me._id) as string;

  // 100 USD in BTC completes: 97.00 credits.
  const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 100 }, headers: auth });
  expect(created.status()).toBe(201);
  const payment = (await created.json()).payment as { _id: string; providerPaymentId: string };
  const finished = await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
    data: { status: 'finished' },
  });
  expect((await finished.json()).ipn).toMatchObject({ delivered: true });

  // 60.00 of them go (a staff deduction stands in for spending), then the provider refunds the payment.
  const login = await page.request.post('/api/login', {
    data: { username: staff.admin.username, password: staff.admin.password, turnstileToken: 'ok' },
  });
  const adminToken = (await login.json()).token as string;
  const spent = await page.request.post('/api/admin/credits/adjustments', {
    data: { userId, amount: -60, reason: 'Spent in the catalogue' },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(spent.status()).toBe(201);
  const refunded = await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
    data: { status: 'refunded' },
  });
  expect((await refunded.json()).ipn).toMatchObject({ delivered: true });

  await page.goto('/dashboard/wallet');
  const notice = page.getByTestId('outstanding-notice');
  await expect(notice.getByRole('heading', { name: 'Your account owes 60.00 credits' })).toBeVisible();
  await expect(notice).toContainText('sent back to the sender');
  await expect(notice.locator('code')).toHaveText(payment._id.slice(0, 8));
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  await expect(page.getByRole('region', { name: 'Credit history' }).getByText('−37.00')).toBeVisible();

  const admin = await staffPage(browser, 'admin');
  await admin.getByRole('link', { name: 'Staff console' }).click();
  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Users' }).click();
  const flagged = admin.getByTestId(`flagged-${userId}`);
  await expect(flagged).toContainText(username);
  await expect(flagged.getByLabel('Flagged: owes credits')).toBeVisible();
  await expect(flagged).toContainText(`Payment ${payment._id.slice(0, 8)} refunded: 60.00 of 60.00 still owed`);
  await admin.context().close();
  expect(consoleErrors).toEqual([]);
});
