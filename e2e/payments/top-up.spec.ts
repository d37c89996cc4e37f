import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures';

/** A signed-in user past onboarding, so the dashboard shows the top-up panel. */
async function signedInUser(page: Page): Promise<string> {
  const { token } = await signIn(page);
  const res = await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return token;
}

/** Moves the sandbox payment the way NOWPayments would (the sandbox sends the signed IPN). */
async function movePayment(page: Page, providerPaymentId: string, status: string): Promise<void> {
  const res = await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status } });
  expect(res.status()).toBe(200);
  expect((await res.json()).ipn).toMatchObject({ delivered: true });
}

test('top up 100 USD in BTC, follow the status as the payment moves, land on the complete page with 97.00 credits', async ({
  page,
  consoleErrors,
}) => {
  const token = await signedInUser(page);
  await page.clock.install();
  await page.goto('/dashboard/wallet');

  const panel = page.getByRole('region', { name: 'Top up credits' });
  await panel.getByLabel('Search currencies').fill('bitc');
  await panel.getByRole('radio', { name: /Bitcoin/ }).check();
  await panel.getByLabel('Amount (USD)').fill('100');
  await expect(panel.getByTestId('topup-fee')).toHaveText('3.00 USD');
  await expect(panel.getByTestId('topup-credits')).toHaveText('97.00 credits');
  await expect(panel.getByText('Processing fee (3%)')).toBeVisible();
  await panel.getByRole('button', { name: 'Pay with BTC' }).click();

  await expect(page).toHaveURL(/\/payment\/process\?address=bc1q[a-z0-9]+&amount=0\.00153846&currency=btc&id=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get('id')!;
  await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Payment' })).toBeVisible();
  await expect(page.getByText('Do not close this page')).toBeVisible();
  await expect(page.getByTestId('payment-countdown')).toHaveText(/^(59|60):\d\d$/);
  await expect(page.getByTestId('payment-pay-amount')).toHaveText('0.00153846 BTC');
  await expect(page.getByText('Processing fee (3%)')).toBeVisible();
  await expect(page.getByTestId('payment-credits')).toHaveText('97.00');
  await expect(page.locator('.payment-qr svg')).toHaveAttribute('height', '200');
  await expect(page.getByText(/Send only BTC to this address/)).toBeVisible();
  const status = page.getByTestId('payment-status-message');
  await expect(status).toHaveText('Waiting for payment...');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), `payment_expiry_${id}`)).not.toBeNull();

  const detail = await page.request.get(`/api/payments/${id}`, { headers: { authorization: `Bearer ${token}` } });
  const providerPaymentId = (await detail.json()).payment.providerPaymentId as string;

  const steps: [string, string][] = [
    ['confirming', 'Payment detected! Waiting for blockchain confirmation...'],
    ['confirmed', 'Payment confirmed! Processing your credits...'],
    ['sending', 'Processing payment...'],
  ];
  for (const [next, message] of steps) {
    await movePayment(page, providerPaymentId, next);
    // The page polls every 15 seconds.
    await page.clock.fastForward(15_000);
    await expect(status).toHaveText(message);
  }

  await movePayment(page, providerPaymentId, 'finished');
  await page.clock.fastForward(15_000);
  await expect(page).toHaveURL(new RegExp(`/payment/complete\\?id=${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Payment complete' })).toBeVisible();
  await expect(page.getByTestId('complete-credits')).toHaveText('97.00');
  await expect(page.getByTestId('complete-balance')).toHaveText('97.00 credits');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), `payment_expiry_${id}`)).toBeNull();

  await page.getByRole('link', { name: 'Back to my wallet' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('97.00');
  const history = page.getByRole('region', { name: 'Payment history' });
  await expect(history.getByText('Completed')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Credit history' }).getByText('+97.00')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('the payment page sends a link with a missing parameter to the dashboard', async ({ page }) => {
  await signedInUser(page);
  await page.goto('/payment/process?address=bc1qxyz&amount=0.1&currency=btc');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a forged link shows a warning instead of the address and QR code', async ({ page }) => {
  const token = await signedInUser(page);
  const res = await page.request.post('/api/payments/deposit', {
    data: { crypto: 'btc', amount: 20 },
    headers: { authorization: `Bearer ${token}` },
  });
  const payment = (await res.json()).payment as { _id: string; payAmount: string };
  await page.goto(
    `/payment/process?address=bc1qattacker000000000000000000000000000000&amount=${payment.payAmount}&currency=btc&id=${payment._id}`,
  );
  await expect(page.getByTestId('payment-forged')).toBeVisible();
  await expect(page.locator('.payment-qr')).toHaveCount(0);
  await expect(page.getByText('bc1qattacker', { exact: false })).toHaveCount(0);
  // The warning alone: no status line telling the visitor to send anything.
  await expect(page.getByTestId('payment-status')).toHaveCount(0);
  await expect(page.getByText(/send the exact amount/)).toHaveCount(0);
});

test('the countdown survives a reload, and at zero forgets the payment and returns to the dashboard', async ({ page }) => {
  const token = await signedInUser(page);
  const res = await page.request.post('/api/payments/deposit', {
    data: { crypto: 'xrp', amount: 50 },
    headers: { authorization: `Bearer ${token}` },
  });
  const p = (await res.json()).payment as { _id: string; payAmount: string; payAddress: string; extraId: string };
  const url = `/payment/process?address=${p.payAddress}&amount=${p.payAmount}&currency=xrp&id=${p._id}&extraId=${p.extraId}`;
  const key = `payment_expiry_${p._id}`;
  await page.goto('/');
  await page.evaluate(([k, v]) => window.localStorage.setItem(k!, v!), [key, String(Date.now() + 95_000)]);
  await page.goto(url);
  await expect(page.getByTestId('payment-countdown')).toHaveText(/^01:(3[0-5]|2\d)$/);
  await expect(page.getByTestId('payment-memo')).toHaveText(p.extraId);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copyMemo = page.getByRole('button', { name: 'Copy destination tag / memo' });
  await copyMemo.click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copied!' })).toHaveCount(0, { timeout: 4000 });
  await page.reload();
  await expect(page.getByTestId('payment-countdown')).toHaveText(/^01:[0-3]\d$/);

  await page.evaluate(([k, v]) => window.localStorage.setItem(k!, v!), [key, String(Date.now() + 2_000)]);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 8000 });
  expect(await page.evaluate((k) => window.localStorage.getItem(k), key)).toBeNull();
});
