import type { Browser, Page } from '@playwright/test';
import { expect, quietNotificationStream, signIn, test, watchConsole } from '../support/fixtures.js';
import { movePayment, startTopUp, type Auth } from '../support/seed.js';
import { staffPage } from '../support/staff-login.js';

/**
 * Referrals end to end (docs/product.md#referrals): a link copied from My referrals, a person who joins
 * through it and tops up, the referrer's held reward released into the balance, the welcome bonus, the
 * receipts; and an admin's refusal whose note the referrer reads.
 */

const PASSWORD = 'correct horse battery staple';

/** A user signed in past onboarding, on My referrals. */
async function referrer(page: Page): Promise<{ token: string; username: string; auth: Auth }> {
  const account = await signIn(page);
  const auth = { authorization: `Bearer ${account.token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  await page.goto('/dashboard/referrals');
  await expect(page.getByRole('heading', { level: 1, name: 'Referrals' })).toBeVisible();
  return { ...account, auth };
}

/** Someone new opens `link` in a browser of their own and registers through the form it fills. */
async function registerThrough(browser: Browser, link: string, code: string): Promise<{ page: Page; username: string; auth: Auth }> {
  // Another person's browser: a context of its own, so a device cookie of its own. Its user agent is the
  // referrer's (one browser version): that alone must not make the referral a self-referral.
  const context = await browser.newContext();
  await quietNotificationStream(context);
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByLabel(/Referral code/)).toHaveValue(code);
  await expect(page.getByTestId('referral-invited')).toHaveText('You were invited: you get a welcome bonus on your first top-up.');
  const username = `e2e_b_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.org`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  return { page, username, auth };
}

test('a link shared from My referrals: the friend joins and tops up, the reward is held then spendable, both have receipts', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const a = await referrer(page);
  await expect(page.getByText('No one has joined with your link yet.')).toBeVisible();
  await expect(
    page.getByText('You earn 10% of each top-up of the people who join with your link for 90 days, up to 50.00 credits each.'),
  ).toBeVisible();

  // Copy: the clipboard holds the link shown, and the button says so.
  const code = (await page.getByTestId('referral-code').textContent())!;
  const link = await page.getByTestId('referral-link').inputValue();
  expect(link).toBe(`${new URL(page.url()).origin}/register?ref=${code}`);
  await page.getByRole('button', { name: 'Copy your referral link' }).click();
  await expect(page.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // B joins through the link and tops up 100 USD (97.00 credits) in the sandbox.
  const b = await registerThrough(browser, link, code);
  const payment = await startTopUp(b.page.request, b.auth, 100);
  await movePayment(b.page.request, payment.providerPaymentId, 'finished');

  // A: 10% of 97.00 credits, held. The reward is the work of a job the finished payment queues: the
  // page is opened again until its figures show it.
  const row = page.getByRole('table', { name: 'People who joined with your link' }).getByRole('row').nth(1);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('referral-held')).toHaveText('9.70 credits', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toContainText(b.username.slice(0, 2));
  await expect(row).toContainText('Topped up');
  await expect(page.getByTestId('referral-paid')).toHaveText('0.00 credits');
  await expect(page.getByTestId('referral-next-release')).not.toHaveText('Nothing held');
  await page.goto('/dashboard/wallet');
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');

  // The held rewards are released (the sandbox's control stands in for the days passing).
  const released = await page.request.post('/api/sandbox/referrals/release-held', { headers: a.auth });
  expect(released.status(), await released.text()).toBe(200);

  await page.goto('/dashboard/referrals');
  await expect(page.getByTestId('referral-paid')).toHaveText('9.70 credits');
  await expect(page.getByTestId('referral-held')).toHaveText('0.00 credits');
  await expect(page.getByTestId('referral-next-release')).toHaveText('Nothing held');
  await page.goto('/dashboard/wallet');
  await expect(page.getByTestId('credit-balance')).toHaveText('9.70');
  const historyA = page.getByRole('region', { name: 'Credit history' });
  const rewardRow = historyA.getByRole('row').filter({ hasText: 'Referral reward' });
  await expect(rewardRow).toContainText('+9.70');
  await rewardRow.getByRole('link', { name: /^Receipt/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt: Referral reward' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('9.70');

  // B: the welcome bonus on top of the top-up, with its receipt.
  await b.page.goto('/dashboard/wallet');
  await expect(b.page.getByTestId('credit-balance')).toHaveText('99.00');
  const bonusRow = b.page.getByRole('region', { name: 'Credit history' }).getByRole('row').filter({ hasText: 'Welcome bonus' });
  await expect(bonusRow).toContainText('+2.00');
  await bonusRow.getByRole('link', { name: /^Receipt/ }).click();
  await expect(b.page.getByRole('heading', { level: 1, name: 'Receipt: Welcome bonus' })).toBeVisible();
  await expect(b.page.getByRole('main')).toContainText('2.00');
  expect(consoleErrors).toEqual([]);
  await b.page.context().close();
});

test('an unknown code in a link is refused on the register form', async ({ page }) => {
  await page.goto('/register?ref=NOSUCHCODE1');
  await expect(page.getByLabel(/Referral code/)).toHaveValue('NOSUCHCODE1');
  const username = `e2e_x_${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.org`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel(/Referral code/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('p.field-error')).toHaveText('Unknown referral code');
  await expect(page).toHaveURL(/\/register\?ref=NOSUCHCODE1$/);
});

test('an admin refuses a referral with a note, and the referrer reads it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await referrer(page);
  const code = (await page.getByTestId('referral-code').textContent())!;
  const link = await page.getByTestId('referral-link').inputValue();
  const b = await registerThrough(browser, link, code);
  await b.page.context().close();

  const admin = await staffPage(browser, 'admin');
  const errors = watchConsole(admin);
  await admin.goto('/dashboard/staff/referrals');
  await expect(admin.getByRole('heading', { level: 2, name: 'Referrals' })).toBeVisible();
  await admin.getByLabel('Search').fill(b.username);
  const row = admin.getByRole('row').filter({ hasText: b.username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Joined');
  await row.getByRole('button', { name: /^Refuse/ }).click();
  const dialog = admin.getByRole('dialog', { name: 'Refuse this referral?' });
  await dialog.getByRole('textbox').fill('no');
  await dialog.getByRole('button', { name: 'Refuse referral' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Say why (at least 3 characters)');
  const note = 'Both accounts were opened by one person';
  await dialog.getByRole('textbox').fill(note);
  await dialog.getByRole('button', { name: 'Refuse referral' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('status').filter({ hasText: 'Refused:' })).toContainText(b.username);
  await expect(row).toContainText('Refused by staff');
  await expect(row).toContainText(note);
  await expect(row.getByRole('button')).toHaveCount(0);
  expect(errors).toEqual([]);

  await page.reload();
  const mine = page.getByRole('table', { name: 'People who joined with your link' }).getByRole('row').nth(1);
  await expect(mine).toContainText('Refused');
  await expect(mine).toContainText('Our staff refused it.');
  await expect(mine).toContainText(`Note from our staff: ${note}`);
  await admin.context().close();
});
