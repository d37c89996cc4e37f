import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

// Catalogue and orders (decision 0160). Generous timeouts: the machine running these may be busy.
const SLOW = { timeout: 30_000 };

const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** A signed-in user past onboarding, so the dashboard shows the balance, the top-up form and the catalogue. */
async function signedInUser(page: Page): Promise<{ token: string; username: string }> {
  const account = await signIn(page);
  const res = await page.request.put('/api/onboarding', {
    data: { completed: true },
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(res.status()).toBe(200);
  return account;
}

/** Adds an item through the API with the admin page's own session. */
async function addItemByApi(admin: Page, body: { name: string; priceCents: number; stock?: number | null }): Promise<string> {
  const token = await admin.evaluate(() => window.localStorage.getItem('token'));
  const res = await admin.request.post('/api/admin/catalogue', {
    data: { description: 'Made by the browser test.', stock: null, ...body },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { item: { _id: string } }).item._id;
}

const catalogue = (page: Page) => page.getByRole('region', { name: 'Use your credits' });
const itemCard = (page: Page, name: string) =>
  catalogue(page)
    .getByTestId('catalogue-item')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

test('an admin adds an item; a user tops up, buys it after confirming, sees the order and the new balance; staff fulfil it', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const name = uniqueName('Priority support');

  // The admin adds the item in the staff console.
  const admin = await staffPage(browser, 'admin');
  await admin.getByRole('link', { name: 'Staff console' }).click();
  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Catalogue' }).click();
  const form = admin.getByRole('form', { name: 'Add an item' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description').fill('An answer from a person within the hour.');
  await form.getByLabel('Price (credits)').fill('12.50');
  await form.getByLabel('Stock').fill('3');
  await form.getByRole('button', { name: 'Add item' }).click();
  const itemRow = admin.getByRole('table', { name: 'Catalogue items' }).getByRole('row').filter({ hasText: name });
  await expect(itemRow).toContainText('12.50 credits', SLOW);
  await expect(itemRow).toContainText('Listed');

  // The user tops up 20 USD in BTC (19.00 credits after the 5% fee) in the payment sandbox.
  const { token, username } = await signedInUser(page);
  await page.goto('/dashboard/wallet');
  const topUp = page.getByRole('region', { name: 'Top up credits' });
  await topUp.getByLabel('Search currencies').fill('bitc');
  await topUp.getByRole('radio', { name: /Bitcoin/ }).check();
  await topUp.getByLabel('Amount (USD)').fill('20');
  await expect(topUp.getByTestId('topup-credits')).toHaveText('19.00 credits');
  await topUp.getByRole('button', { name: 'Pay with BTC' }).click();
  await expect(page).toHaveURL(/\/payment\/process\?/, SLOW);
  const paymentId = new URL(page.url()).searchParams.get('id')!;
  const detail = await page.request.get(`/api/payments/${paymentId}`, { headers: { authorization: `Bearer ${token}` } });
  const providerPaymentId = (await detail.json()).payment.providerPaymentId as string;
  const moved = await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status: 'finished' } });
  expect(moved.status()).toBe(200);
  expect((await moved.json()).ipn).toMatchObject({ delivered: true });

  await page.goto('/dashboard/shop');
  await expect(page.getByTestId('credit-balance')).toHaveText('19.00', SLOW);

  // Buy it, with the confirmation step.
  const card = itemCard(page, name);
  await expect(card).toContainText('12.50 credits', SLOW);
  await expect(card).toContainText('3 left');
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Buy ${name}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('buy-price')).toHaveText('12.50 credits');
  await expect(dialog.getByTestId('buy-balance')).toHaveText('19.00 credits');
  await expect(dialog.getByTestId('buy-balance-after')).toHaveText('6.50 credits');
  // Focus is in the dialog, on the confirm button; Escape would cancel.
  await expect(dialog.getByRole('button', { name: 'Confirm: pay 12.50 credits' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden(SLOW);
  // Focus goes back to the Buy button.
  await expect(card.getByRole('button', { name: `Buy ${name}` })).toBeFocused();

  await expect(page.getByTestId('credit-balance')).toHaveText('6.50', SLOW);
  await expect(card).toContainText('2 left', SLOW);
  const orderRow = catalogue(page).getByTestId('order-row').filter({ hasText: name });
  await expect(orderRow.getByTestId('order-status')).toHaveText('Paid', SLOW);
  await expect(orderRow.getByRole('link', { name: `Receipt for ${name}` })).toHaveAttribute(
    'href',
    /^\/dashboard\/receipts\/[0-9a-f-]{36}$/,
  );
  // The wallet's credit history has the purchase.
  await page.getByRole('navigation', { name: 'Dashboard', exact: true }).getByRole('link', { name: 'Wallet' }).click();
  await expect(page.getByRole('region', { name: 'Credit history' }).getByText('−12.50')).toBeVisible(SLOW);

  // Staff fulfil it in the console.
  await admin.reload();
  const staffOrder = admin.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: name });
  await expect(staffOrder).toContainText(username, SLOW);
  await expect(staffOrder).toContainText('Paid');
  await staffOrder.getByRole('button', { name: `Fulfil ${name} for ${username}` }).click();
  await expect(staffOrder).toContainText('Fulfilled', SLOW);

  // The user sees it fulfilled, in the shop's orders.
  await page.goto('/dashboard/shop');
  const fulfilled = catalogue(page).getByTestId('order-row').filter({ hasText: name });
  await expect(fulfilled.getByTestId('order-status')).toHaveText('Fulfilled', SLOW);
  await admin.context().close();

  // The order's receipt names its ledger entry.
  await fulfilled.getByRole('link', { name: `Receipt for ${name}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('receipt-reference')).toHaveText(/^order:[0-9a-f-]{36}$/, SLOW);
  await expect(page.getByTestId('receipt-amount')).toHaveText('−12.50 credits');
  const orderReference = (await page.getByTestId('receipt-reference').textContent())!;

  // The CSV export of today holds the top-up and the purchase.
  await page.getByRole('link', { name: '← Wallet' }).click();
  const today = new Date().toISOString().slice(0, 10);
  const exportForm = page.getByRole('form', { name: 'Export as CSV' });
  await exportForm.getByLabel('From', { exact: true }).fill(today);
  await exportForm.getByLabel('To', { exact: true }).fill(today);
  const downloading = page.waitForEvent('download');
  await exportForm.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await downloading).path())!, 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`,payment,`);
  expect(lines[1]).toContain(`,19.00,19.00,payment:${paymentId}`);
  expect(lines[2]).toContain(`,spend,`);
  expect(lines[2]).toContain(`,-12.50,6.50,${orderReference}`);
  expect(consoleErrors).toEqual([]);
});

test('not enough credits shows the shortfall and a Top up link that fills in the payment covering it', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const name = uniqueName('Big bundle');
  const admin = await staffPage(browser, 'admin');
  await addItemByApi(admin, { name, priceCents: 1250 });
  await admin.context().close();

  await signedInUser(page);
  // A phone: the catalogue fits the width.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/dashboard/shop');
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00', SLOW);
  const card = itemCard(page, name);
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Buy ${name}?` });
  await expect(dialog.getByTestId('buy-shortfall')).toHaveText('Not enough credits: you need 12.50 more.');
  await expect(dialog.getByRole('button', { name: /Confirm/ })).toBeDisabled();
  const link = dialog.getByRole('link', { name: 'Top up 12.50 credits' });
  await expect(link).toHaveAttribute('href', '/dashboard/wallet?topup=12.50#top-up');
  // The dialog and the catalogue fit the screen (the page header's long test usernames may not: not ours).
  for (const box of [await dialog.boundingBox(), await catalogue(page).boundingBox()]) {
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  }
  expect(await catalogue(page).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await link.click();

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard\/wallet\?topup=12\.50#top-up$/);
  const topUp = page.getByRole('region', { name: 'Top up credits' });
  await expect(topUp.getByTestId('topup-wanted')).toContainText('You need 12.50 more credits', SLOW);
  // 13.16 USD less the 5% fee (0.66) is 12.50 credits.
  await expect(topUp.getByLabel('Amount (USD)')).toHaveValue('13.16');
  await expect(topUp.getByTestId('topup-credits')).toHaveText('12.50 credits');
  await expect(topUp.getByLabel('Amount (USD)')).toBeFocused();
  expect(consoleErrors).toEqual([]);
});

test('a guest sees the catalogue and is asked to sign up to buy', async ({ page, browser, consoleErrors }) => {
  test.setTimeout(120_000);
  const name = uniqueName('Guest view');
  const admin = await staffPage(browser, 'admin');
  await addItemByApi(admin, { name, priceCents: 499, stock: 5 });
  await admin.context().close();

  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, SLOW);
  const card = itemCard(page, name);
  await expect(card).toContainText('4.99 credits', SLOW);
  await expect(card).toContainText('5 left');
  await expect(catalogue(page).getByRole('button', { name: /Buy/ })).toHaveCount(0);
  await card.getByRole('link', { name: `Sign up to buy ${name}` }).click();
  await expect(page).toHaveURL(/\/register$/);
  expect(consoleErrors).toEqual([]);
});

test('a price changed while the dialog was open is not charged: the dialog shows the new price and asks again', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const name = uniqueName('Moving price');
  const admin = await staffPage(browser, 'admin');
  const itemId = await addItemByApi(admin, { name, priceCents: 200 });
  const adminToken = await admin.evaluate(() => window.localStorage.getItem('token'));
  const adminApi = { authorization: `Bearer ${adminToken}` };

  const { token } = await signedInUser(page);
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  const userId = ((await me.json()) as { user: { _id: string } }).user._id;
  const credited = await admin.request.post('/api/admin/credits/adjustments', {
    data: { userId, amount: 10, reason: 'Browser test credits' },
    headers: adminApi,
  });
  expect(credited.status(), await credited.text()).toBe(201);

  await page.goto('/dashboard/shop');
  await expect(page.getByTestId('credit-balance')).toHaveText('10.00', SLOW);
  const card = itemCard(page, name);
  await expect(card).toContainText('2.00 credits', SLOW);
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Buy ${name}?` });
  await expect(dialog.getByTestId('buy-price')).toHaveText('2.00 credits');

  // Meanwhile the admin raises the price.
  const raised = await admin.request.put(`/api/admin/catalogue/${itemId}`, { data: { priceCents: 300 }, headers: adminApi });
  expect(raised.status()).toBe(200);
  await admin.context().close();

  await dialog.getByRole('button', { name: 'Confirm: pay 2.00 credits' }).click();
  await expect(dialog.getByTestId('buy-price-changed')).toHaveText('The price changed to 3.00 credits. Buy at the new price?', SLOW);
  await expect(dialog.getByTestId('buy-price')).toHaveText('3.00 credits');
  await expect(dialog.getByTestId('buy-balance-after')).toHaveText('7.00 credits');
  // Nothing was charged by the refused attempt.
  await expect(page.getByTestId('credit-balance')).toHaveText('10.00');

  await dialog.getByRole('button', { name: 'Confirm: pay 3.00 credits' }).click();
  await expect(dialog).toBeHidden(SLOW);
  await expect(page.getByTestId('credit-balance')).toHaveText('7.00', SLOW);
  const orderRow = catalogue(page).getByTestId('order-row').filter({ hasText: name });
  await expect(orderRow).toContainText('3.00', SLOW);
  await expect(orderRow.getByTestId('order-status')).toHaveText('Paid');
  expect(consoleErrors).toEqual([]);
});
