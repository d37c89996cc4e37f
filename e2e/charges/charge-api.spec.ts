import { readFile } from 'node:fs/promises';
import { expect, registerUser, test } from '../support/fixtures.js';
import { skipOnboarding, staffPage } from '../support/staff-login.js';

/**
 * decision 0165, the charge API end to end: an admin makes an API key in the console and sees it once; a
 * service charges a user's credits with it; the user finds the charge in the credit history, opens its
 * printable receipt, and exports the ledger of today as CSV.
 */
test('an admin key charges a user, who sees the charge, its receipt and the CSV export', async ({ page, browser, consoleErrors }) => {
  const account = await registerUser(page);
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${account.token}` } });
  const userId = ((await me.json()) as { user: { _id: string } }).user._id;

  // The admin makes a key: shown once, then only its prefix.
  const admin = await staffPage(browser, 'admin');
  await admin.getByRole('link', { name: 'Staff console' }).click();
  await admin.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'API keys' }).click();
  await admin.getByLabel('Key name').fill('E2E billing service');
  await admin.getByRole('button', { name: 'Create key' }).click();
  const shown = admin.getByTestId('new-api-key-value');
  await expect(shown).toHaveText(/^olk_live_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent())!.trim();
  const row = admin.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'E2E billing service' });
  await expect(row).toContainText(`${key.slice(0, 17)}…`);
  await expect(row).toContainText('Active');
  await admin.reload();
  await expect(admin.getByRole('table', { name: 'API keys' })).toContainText('E2E billing service');
  await expect(admin.getByTestId('new-api-key-value')).toHaveCount(0);
  expect(await admin.content()).not.toContain(key);

  // Funds for the user, through the admin API (top-ups are covered by the payments tests).
  const adminToken = await admin.evaluate(() => window.localStorage.getItem('token'));
  const funded = await admin.request.post('/api/admin/credits/adjustments', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { userId, amount: 20, reason: 'E2E funding (internal)', customerNote: 'E2E starting credits' },
  });
  expect(funded.status(), await funded.text()).toBe(201);
  await admin.context().close();

  // The operator's service charges with the key; a retry with the same Idempotency-Key charges nothing more.
  const chargeBody = { userId, amountCents: 350, description: 'E2E render job #42', metadata: { job: '42' } };
  const first = await page.request.post('/api/v1/charges', {
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'e2e-job-42' },
    data: chargeBody,
  });
  expect(first.status(), await first.text()).toBe(201);
  const charged = (await first.json()) as { charge: { id: string }; balanceCents: number };
  expect(charged.balanceCents).toBe(1650);
  const retry = await page.request.post('/api/v1/charges', {
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'e2e-job-42' },
    data: chargeBody,
  });
  expect(retry.status()).toBe(201);
  expect(((await retry.json()) as { charge: { id: string } }).charge.id).toBe(charged.charge.id);
  // The user's own session token never opens the charge API.
  const withSession = await page.request.post('/api/v1/charges', {
    headers: { authorization: `Bearer ${account.token}`, 'idempotency-key': 'e2e-x' },
    data: chargeBody,
  });
  expect(withSession.status()).toBe(401);

  // The user sees the charge and opens its receipt.
  await page.addInitScript((token) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('userType', 'user');
  }, account.token);
  await page.goto('/dashboard/wallet');
  await skipOnboarding(page);
  await expect(page.getByTestId('credit-balance')).toHaveText('16.50');
  const history = page.getByRole('region', { name: 'Credit history' });
  const chargeRow = history.getByRole('row').filter({ hasText: 'E2E render job #42' });
  await expect(chargeRow).toContainText('−3.50');
  await chargeRow.getByRole('link', { name: /Receipt/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt: Purchase of E2E render job #42' })).toBeVisible();
  await expect(page.getByTestId('receipt-reference')).toHaveText(`charge:${charged.charge.id}`);
  await expect(page.getByTestId('receipt-amount')).toHaveText('−3.50 credits');
  await expect(page.getByTestId('receipt-description')).toHaveText('E2E render job #42');
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  // Printed, the receipt leaves the site's header and the buttons out.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.locator('.site-header')).toBeHidden();
  await expect(page.getByTestId('receipt-reference')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The CSV export of today holds both entries.
  await page.getByRole('link', { name: '← Wallet' }).click();
  await expect(page).toHaveURL(/\/dashboard\/wallet$/);
  const today = new Date().toISOString().slice(0, 10);
  const exportForm = page.getByRole('form', { name: 'Export as CSV' });
  await exportForm.getByLabel('From', { exact: true }).fill(today);
  await exportForm.getByLabel('To', { exact: true }).fill(today);
  const downloading = page.waitForEvent('download');
  await exportForm.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`olympus-ledger-${today}-to-${today}.csv`);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('date,entry_id,kind,description,amount,balance_after,reference');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(',adjustment,E2E starting credits,20.00,20.00,adjustment:');
  expect(lines[2]).toContain(`,spend,E2E render job #42,-3.50,16.50,charge:${charged.charge.id}`);
  expect(consoleErrors).toEqual([]);
});
