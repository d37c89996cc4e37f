import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * The account menu in the header of every signed-in page (docs/decisions/0238): who is signed in,
 * Dashboard, Settings, Support and Sign out, usable with a keyboard.
 */

const accountButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Account', exact: true });

async function openAccountMenu(page: Page) {
  const button = accountButton(page);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('banner').getByRole('list', { name: 'Your account' });
}

async function userWithReceipt(page: Page): Promise<{ username: string; paymentId: string; entryId: string }> {
  const { token, username } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 20 }, headers: auth });
  expect(created.status()).toBe(201);
  const payment = (await created.json()).payment as { _id: string; providerPaymentId: string };
  await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, { data: { status: 'finished' } });
  const history = await (await page.request.get('/api/credits/history?page=1&pageSize=10', { headers: auth })).json();
  return { username, paymentId: payment._id, entryId: history.entries[0]._id as string };
}

for (const width of [375, 1280]) {
  test(`at ${width} px every signed-in page has the account menu; keyboard opens and Escape closes it`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 800 });
    const { username, paymentId, entryId } = await userWithReceipt(page);
    const pages = [
      { path: '/dashboard', heading: `Welcome, ${username}` },
      { path: '/dashboard/settings', heading: 'Settings' },
      { path: '/dashboard/support', heading: 'Support' },
      { path: `/dashboard/receipts/${entryId}`, heading: /Receipt/ },
      { path: `/payment/complete?id=${paymentId}`, heading: 'Payment complete' },
    ];
    for (const { path, heading } of pages) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { name: heading }).first()).toBeVisible();
      const list = await openAccountMenu(page);
      await expect(page.getByRole('banner').getByText(`Signed in as ${username}`)).toBeVisible();
      for (const name of ['Dashboard', 'Settings', 'Support']) await expect(list.getByRole('link', { name, exact: true })).toBeVisible();
      await expect(list.getByRole('button', { name: 'Sign out' })).toBeVisible();
      // Every target is at least 24 x 24 px, and the open menu stays on screen.
      for (const target of [accountButton(page), ...(await list.locator('a, button').all())]) {
        const box = (await target.boundingBox())!;
        expect(box.width, `${path}: target width`).toBeGreaterThanOrEqual(24);
        expect(box.height, `${path}: target height`).toBeGreaterThanOrEqual(24);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path}: no sideways scroll with the menu open`).toBeLessThanOrEqual(0);
      await accountButton(page).click();
      await expect(list).toBeHidden();
    }

    // Keyboard: Enter opens, Tab moves into the menu, Escape closes it and focus returns to the button.
    const button = accountButton(page);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(
      page.getByRole('banner').getByRole('list', { name: 'Your account' }).getByRole('link', { name: 'Dashboard' }),
    ).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();

    // Following a link goes there and closes the menu.
    const list = await openAccountMenu(page);
    await list.getByRole('link', { name: 'Settings', exact: true }).click();
    // Settings open at their first section (docs/decisions/0320-settings-in-sections.md).
    await expect(page).toHaveURL(/\/dashboard\/settings\/account$/);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(consoleErrors).toEqual([]);
  });
}

test('Sign out from the settings page ends the session', async ({ page, consoleErrors }) => {
  const { token } = await signIn(page);
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const list = await openAccountMenu(page);
  await list.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  await expect(accountButton(page)).toHaveCount(0);
  // The session is over on the server too.
  expect((await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  expect(consoleErrors).toEqual([]);
});

test('Sign out from the staff console ends the session', async ({ browser }) => {
  const page = await staffPage(browser, 'admin');
  await page.goto('/dashboard/staff');
  await expect(page.getByRole('navigation', { name: 'Staff' })).toBeVisible();
  const list = await openAccountMenu(page);
  await expect(list.getByRole('link', { name: 'Staff console' })).toBeVisible();
  await list.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The session is over on the server too: the dashboard sends the visitor back to log in.
  await page.goto('/dashboard/staff');
  await expect(page).toHaveURL(/\/login$/);
  await page.context().close();
});
