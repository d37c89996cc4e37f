import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * Every action that moves money says what happened (decision 0239): the payment page follows each
 * status with a badge and a sentence, Payment complete says what was credited and links to its
 * receipt, and a purchase says what was bought and the balance after it.
 */

const SLOW = { timeout: 30_000 };

async function signedInUser(page: Page): Promise<string> {
  const { token } = await signIn(page);
  const res = await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return token;
}

async function topUpTo(page: Page, usd: string): Promise<void> {
  await page.goto('/dashboard/wallet');
  const topUp = page.getByRole('region', { name: 'Top up credits' });
  await topUp.getByLabel('Search currencies').fill('bitc');
  await topUp.getByRole('radio', { name: /Bitcoin/ }).check();
  await topUp.getByLabel('Amount (USD)').fill(usd);
  await topUp.getByRole('button', { name: 'Pay with BTC' }).click();
  await expect(page).toHaveURL(/\/payment\/process\?/, SLOW);
}

/** Screenshots at a phone's and a desktop's width, of the page or of one part of it. */
async function shoot(page: Page, name: string, part?: Locator): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const path = `test-results/feedback-${name}-${width}.png`;
    if (part) await part.screenshot({ path });
    else await page.screenshot({ path, fullPage: true });
  }
}

test('a sandbox top-up reads confirming, then finished, and Payment complete links to the receipt of the credit', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  await signedInUser(page);
  await topUpTo(page, '100');

  const status = page.getByTestId('payment-status');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByTestId('payment-status-badge')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-status-message')).toHaveText('Waiting for payment...');
  await expect(page.getByTestId('payment-status-detail')).toContainText('Waiting for your payment');

  // The transaction-hash check is a labelled control that opens its form.
  const check = page.getByText('Already sent the payment? Check it with your transaction hash');
  await expect(check).toBeVisible();
  await check.click();
  await expect(page.getByLabel('Transaction hash')).toBeVisible();

  const panel = page.getByRole('complementary', { name: 'Move this payment' });
  await panel.getByRole('button', { name: 'Confirming' }).click();
  await expect(page.getByTestId('payment-status-badge')).toHaveText('Confirming');
  await expect(page.getByTestId('payment-status-message')).toHaveText('Payment detected! Waiting for blockchain confirmation...');
  await expect(page.getByTestId('payment-status-detail')).toContainText('Payment seen on the network; waiting for confirmations.');
  await shoot(page, 'payment-confirming');

  await panel.getByRole('button', { name: 'Finished' }).click();
  await expect(page).toHaveURL(/\/payment\/complete\?id=/, SLOW);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment complete' })).toBeVisible();
  await expect(page.getByTestId('complete-credited')).toHaveText('97.00 credits added. Balance: 97.00 credits.');
  await expect(page.getByText('Payment credited: 97.00 credits added. Balance: 97.00 credits.')).toBeVisible();
  await shoot(page, 'payment-complete');

  await page.getByRole('link', { name: 'View the receipt of this top-up' }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt: Top-up' })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText('+97.00 credits');
  await shoot(page, 'receipt-top-up');
  expect(consoleErrors).toEqual([]);
});

test('a purchase says what was bought and the balance, and links to its receipt, titled after the item', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const name = `Feedback item ${Date.now().toString(36)}`;
  const admin = await staffPage(browser, 'admin');
  const adminToken = await admin.evaluate(() => window.localStorage.getItem('token'));
  const added = await admin.request.post('/api/admin/catalogue', {
    data: { name, description: 'Made by the browser test.', priceCents: 1250, stock: null },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(added.status(), await added.text()).toBe(201);

  await signedInUser(page);
  await topUpTo(page, '20');
  await page.getByRole('complementary', { name: 'Move this payment' }).getByRole('button', { name: 'Finished' }).click();
  await expect(page).toHaveURL(/\/payment\/complete\?id=/, SLOW);
  await page.getByRole('link', { name: 'Back to my wallet' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('19.00', SLOW);
  await page.goto('/dashboard/shop');

  const catalogue = page.getByRole('region', { name: 'Use your credits' });
  const card = catalogue.getByTestId('catalogue-item').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  await page
    .getByRole('dialog', { name: `Buy ${name}?` })
    .getByRole('button', { name: 'Confirm: pay 12.50 credits' })
    .click();

  const sentence = `Bought ${name} for 12.50 credits. Balance: 6.50 credits.`;
  const bought = catalogue.getByTestId('catalogue-bought');
  await expect(bought).toContainText(sentence);
  await expect(page.getByRole('status').filter({ hasText: sentence }).first()).toBeVisible();
  await shoot(page, 'catalogue-bought', catalogue);
  await bought.getByRole('link', { name: 'View the receipt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Receipt: Purchase of ${name}` })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText('−12.50 credits');
  await shoot(page, 'receipt-purchase');
  expect(consoleErrors).toEqual([]);
});
