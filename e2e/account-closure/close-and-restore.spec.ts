import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import staff from '../support/staff-accounts.json' with { type: 'json' };
import { staffPage } from '../support/staff-login.js';

// Closing an account and restoring it (decision 0255), at a phone's and a desktop's width, in both
// the dialog and the sign-in page's restore step. Generous timeouts: the machine may be busy.
const SLOW = { timeout: 30_000 };
const PASSWORD = 'correct horse battery staple';

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Credits for the user, posted by the admin through the API (the staff console's own call). */
async function giveCredits(page: Page, username: string, amount: number) {
  const login = await page.request.post('/api/login', {
    data: { username: staff.admin.username, password: staff.admin.password, turnstileToken: 'ok' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const adminToken = ((await login.json()) as { token: string }).token;
  const found = await page.request.get(`/api/admin/users?search=${encodeURIComponent(username)}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const userId = ((await found.json()) as { users: { _id: string; username: string }[] }).users.find((u) => u.username === username)!._id;
  const res = await page.request.post('/api/admin/credits/adjustments', {
    data: { userId, amount, reason: 'browser test funds' },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.status(), await res.text()).toBe(201);
}

for (const [name, viewport] of [
  ['phone', { width: 375, height: 812 }],
  ['desktop', { width: 1280, height: 900 }],
] as const) {
  test(`closing shows what is forfeited, ends the session, and signing in restores everything (${name})`, async ({
    page,
    browser,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const { token, username } = await signIn(page);
    await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
    await giveCredits(page, username, 12.34);

    await page.goto('/dashboard/settings/privacy');
    const privacy = page.getByRole('region', { name: 'Privacy' });
    await expect(privacy.getByRole('heading', { name: 'Close my account' })).toBeVisible(SLOW);
    await privacy.screenshot({ path: `test-results/close-account-section-${name}.png` });
    await privacy.getByRole('button', { name: 'Close my account…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Close your account?' });
    await expect(dialog.getByTestId('close-account-balance')).toHaveText('12.34 credits', SLOW);
    await expect(dialog.getByTestId('close-account-orders')).toHaveText('None');
    await expect(dialog).toContainText('You will lose 12.34 credits.');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/close-account-dialog-${name}.png`, fullPage: true });

    // Without the box ticked nothing is sent; a wrong password is said at the field.
    await dialog.getByLabel('Password').fill('not my password');
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Tick the box');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(dialog).toContainText('That password is not right', SLOW);

    // The balance moves while the dialog is open: the server refuses and the dialog shows the new figure.
    await giveCredits(page, username, 1);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(dialog.getByTestId('close-account-balance-changed')).toContainText('13.34 credits', SLOW);
    await expect(dialog.getByTestId('close-account-balance')).toHaveText('13.34 credits');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Close my account' }).click();

    await expect(page).toHaveURL(/\/login$/, SLOW);
    await expect(page.getByTestId('account-closed-notice')).toContainText('Your account is closing');
    // The old session is over on the server too.
    expect((await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);

    if (name === 'desktop') {
      // Staff see the closure with the balance it forfeits.
      const admin = await staffPage(browser, 'admin');
      await admin.goto('/dashboard/staff/closures');
      const row = admin.getByRole('table', { name: 'Closing accounts' }).getByRole('row').filter({ hasText: username });
      await expect(row).toContainText('13.34', SLOW);
      await expect(row.getByRole('button', { name: `Erase ${username} now` })).toBeVisible();
      await expectNoAxeViolations(admin);
      await admin.screenshot({ path: 'test-results/closing-accounts-staff.png', fullPage: true });
      await admin.context().close();
    }

    // Signing in leads to "Your account is closing on …: Restore it".
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel("I'm not a robot").check();
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Your account is closing' })).toBeVisible(SLOW);
    await expect(page.getByTestId('restore-erasure-date')).not.toBeEmpty();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/restore-account-${name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Restore my account' }).click();

    // The step says what came back before it signs in.
    await expect(page.getByRole('heading', { name: 'Your account is restored' })).toBeVisible(SLOW);
    await expect(page.getByTestId('restored-came-back')).toContainText('Your balance: 13.34 credits');
    await page.getByRole('button', { name: 'Continue to my dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, SLOW);
    await expect(page.getByTestId('credit-balance')).toHaveText('13.34', SLOW);
    expect(consoleErrors).toEqual([]);
  });
}

test('an admin erases a closing account at once; its name and address then register anew, starting from nothing', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { token, username } = await signIn(page);
  await giveCredits(page, username, 5);
  const closed = await page.request.delete('/api/users/me', {
    data: { password: PASSWORD, acknowledgeForfeitedCents: 500 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(closed.status(), await closed.text()).toBe(202);

  const admin = await staffPage(browser, 'admin');
  await admin.goto('/dashboard/staff/closures');
  const table = admin.getByRole('table', { name: 'Closing accounts' });
  await table.getByRole('button', { name: `Erase ${username} now` }).click();
  const form = admin.getByRole('form', { name: `Erase ${username} now?` });
  // The name typed wrong is refused; typed right, the account is erased and the forfeit written off.
  await form.getByLabel(`Type ${username} to confirm`).fill(`${username}x`);
  await form.getByRole('button', { name: 'Erase now' }).click();
  await expect(form.getByRole('alert')).toBeVisible(SLOW);
  await form.getByLabel(`Type ${username} to confirm`).fill(username);
  await form.getByRole('button', { name: 'Erase now' }).click();
  await expect(admin.getByRole('status').filter({ hasText: `${username} was erased; 5.00 credits were written off.` })).toBeVisible(SLOW);
  await expect(table.getByRole('row').filter({ hasText: username })).toHaveCount(0);
  await admin.context().close();

  // The name and the address are free again: a new account, with nothing of the old one.
  const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await fresh.goto('/register');
  await fresh.getByLabel('Username').fill(username);
  await fresh.getByLabel('Email').fill(`${username}@example.com`);
  await fresh.getByLabel('Password').fill(PASSWORD);
  await fresh.getByLabel("I'm not a robot").check();
  await fresh.getByRole('button', { name: 'Create account' }).click();
  await expect(fresh.getByRole('heading', { name: 'Welcome to Olympus' })).toBeVisible(SLOW);
  const me = await fresh.evaluate(async () =>
    (await fetch('/api/auth/me', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } })).json(),
  );
  expect(me.user).toMatchObject({ username, credits: 0 });
  await fresh.close();
  expect(consoleErrors).toEqual([]);
});

for (const [name, viewport] of [
  ['phone', { width: 375, height: 812 }],
  ['desktop', { width: 1280, height: 900 }],
] as const) {
  test(`the close dialog counts what ad campaigns hold, and the restore says they stay paused (${name})`, async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const { token, username } = await signIn(page);
    await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
    await giveCredits(page, username, 20);
    const created = await page.request.post('/api/ad-campaigns', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        requestId: crypto.randomUUID(),
        name: 'Wallet launch',
        placements: ['patch-notes'],
        startsAt: new Date(Date.now() - 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        priceModel: 'cpm',
        priceCents: 1000,
        budgetCents: 500,
        creatives: [
          {
            kind: 'text',
            title: 'Cold storage, done right',
            body: 'Hardware wallets shipped worldwide.',
            targetUrl: 'https://wallets.example.com/',
          },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto('/dashboard/settings/privacy');
    const privacy = page.getByRole('region', { name: 'Privacy' });
    await privacy.getByRole('button', { name: 'Close my account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account?' });
    await expect(dialog.getByTestId('close-account-balance')).toHaveText('15.00 credits', SLOW);
    await expect(dialog.getByTestId('close-account-campaigns')).toHaveText('Wallet launch: 5.00 credits left in its budget');
    await expect(dialog).toContainText('You will lose 20.00 credits.');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/close-account-dialog-campaigns-${name}.png`, fullPage: true });
    await dialog.getByRole('checkbox').check();
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(page).toHaveURL(/\/login$/, SLOW);

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel("I'm not a robot").check();
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Restore my account' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is restored' })).toBeVisible(SLOW);
    await expect(page.getByTestId('restored-came-back')).toContainText('Your balance: 15.00 credits');
    await expect(page.getByTestId('restored-to-redo')).toContainText(
      'Resume the ad campaign “Wallet launch” (5.00 credits left in its budget)',
    );
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/account-restored-${name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Continue to my dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, SLOW);
    expect(consoleErrors).toEqual([]);
  });
}
