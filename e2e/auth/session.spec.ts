import type { Page } from '@playwright/test';
import { expect, registerUser, test } from '../support/fixtures.js';

/** Every browser test gets its own account: the e2e server keeps one database for the whole run. */
const uniqueName = () => `e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PASSWORD = 'correct horse battery staple';

const localStorageOf = (page: Page) => page.evaluate(() => ({ ...window.localStorage }));

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

test('register, go through onboarding, see 0.00 credits, sign out, and log in again', async ({ page, consoleErrors }) => {
  const username = uniqueName();
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();

  // Onboarding: three steps, then the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Olympus' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'How credits work' })).toBeFocused();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your accounts' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to my dashboard' }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${username}` })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  const stored = await localStorageOf(page);
  expect(stored.token).toBeTruthy();
  expect(stored.userType).toBe('user');
  expect(stored.userRole).toBe('user');
  expect(stored.guestId).toBeUndefined();

  // Sign out ends the session and clears local storage.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await localStorageOf(page)).toEqual({});
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'token')).toBeUndefined();

  // The old token no longer works on the server either.
  const me = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${stored.token}` } });
  expect(me.status()).toBe(401);

  // Log in again: onboarding was saved, so the dashboard shows directly.
  await fillLogin(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${username}` })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  await expect(page.getByRole('heading', { name: 'Welcome to Olympus' })).toHaveCount(0);

  // A reload restores the session from storage (the start-up check).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${username}` })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('continue as guest stores the guestId and userType guest and shows the guest dashboard', async ({ page, consoleErrors }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue as guest' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Guest dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  const stored = await localStorageOf(page);
  expect(stored.guestId).toMatch(/^g_[A-Za-z0-9_-]{32}$/);
  expect(stored.userType).toBe('guest');
  expect(stored.token).toBeTruthy();

  // The guest session survives a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Guest dashboard' })).toBeVisible();
  expect((await localStorageOf(page)).guestId).toBe(stored.guestId);
  expect(consoleErrors).toEqual([]);
});

test("a wrong password shows the server's error and keeps the visitor on /login", async ({ page, consoleErrors }) => {
  const { username } = await registerUser(page);
  await page.goto('/login');
  await fillLogin(page, username, 'not the password at all');

  await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await localStorageOf(page)).token).toBeUndefined();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeEnabled();
  expect(consoleErrors).toEqual([]);
});

test('the form asks for the bot check and shows field errors from the server next to the field', async ({ page }) => {
  await page.goto('/register?ref=');
  const username = uniqueName();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Please complete the bot check')).toBeVisible();

  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();
  // The server refuses common passwords; its message lands on the password field.
  const password = page.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This password is too common. Choose one that is harder to guess.').first()).toBeVisible();
  await expect(password).toBeFocused();
});

test('the register form prefills the referral code from ?ref= and toggles to login', async ({ page }) => {
  await page.goto('/register?ref=FRIEND42');
  await expect(page.getByLabel(/Referral code/)).toHaveValue('FRIEND42');
  await page.getByRole('button', { name: 'Log in instead' }).click();
  await expect(page).toHaveURL(/\/login\?ref=FRIEND42$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await expect(page.getByLabel('Remember me for 30 days')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveCount(0);
});

test('a signed-out visitor is sent from /dashboard to /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
});

test('settings list the sessions, end another one, and a password change ends the others', async ({ page, consoleErrors }) => {
  const { username } = await registerUser(page);
  await page.goto('/login');
  await fillLogin(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Two more sessions elsewhere.
  const otherLogin = async () => {
    const res = await page.request.post('/api/login', { data: { username, password: PASSWORD, turnstileToken: 'ok', rememberMe: false } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };
  await otherLogin();
  const laterToken = await otherLogin();

  await page.goto('/dashboard/settings/security');
  const list = page.getByRole('list', { name: 'Active sessions' });
  await expect(list.getByRole('listitem')).toHaveCount(4); // registration, this browser, two others
  await expect(list.getByRole('listitem').first().getByText('This device', { exact: true })).toBeVisible();

  await list
    .getByRole('listitem')
    .nth(1)
    .getByRole('button', { name: /End session/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Ended the session' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(3);

  // Settings also ask for the current password to change the email address: this is the password form.
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill('wrong password here');
  await passwordForm.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
  await passwordForm.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Current password is incorrect').first()).toBeVisible();

  await passwordForm.getByLabel('Current password').fill(PASSWORD);
  await passwordForm.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password updated. Your other sessions have been signed out.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  const stale = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${laterToken}` } });
  expect(stale.status()).toBe(401);
  expect(consoleErrors).toEqual([]);
});
