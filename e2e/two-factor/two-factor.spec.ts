import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expect, test } from '../support/fixtures.js';
import { startServer, type IsolatedServer } from '../support/isolated-server.js';

/**
 * Two-factor sign-in (decision 0140) in Chromium: an authenticator app from the QR secret, recovery codes, a passkey
 * through Chromium's virtual authenticator (DevTools WebAuthn domain), and turning two-factor off. The app
 * runs on `localhost` here: browsers refuse passkeys on a bare IP address like the shared server's.
 */
const PASSWORD = 'correct horse battery staple';
let server: IsolatedServer;

// A server of its own starts slowly on a busy machine (a fresh embedded database, migrations).
test.describe.configure({ timeout: 180_000 });
test.beforeAll(async () => {
  test.setTimeout(200_000);
  // Its own server on `localhost` (browsers refuse passkeys on a bare IP address).
  server = await startServer({ host: 'localhost', env: { RATE_LIMITS: '0' } });
});
test.afterAll(async () => {
  await server?.stop();
});

const url = (path: string) => `${server.url}${path}`;

async function register(page: Page): Promise<string> {
  const username = `tf_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await page.request.post(url('/api/register'), {
    data: { username, email: `${username}@example.com`, password: PASSWORD, turnstileToken: 'ok' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return username;
}

async function enterPassword(page: Page, username: string) {
  await page.goto(url('/login'));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** New accounts see onboarding first; skip it as a person may. */
async function expectDashboard(page: Page) {
  await expect(page).toHaveURL(/\/dashboard$/);
  const skip = page.getByRole('button', { name: 'Skip', exact: true });
  const balance = page.getByTestId('credit-balance');
  await expect(skip.or(balance)).toBeVisible();
  if (await skip.isVisible()) await skip.click();
  await expect(balance).toBeVisible();
}

async function signOut(page: Page) {
  // The sign-out button lives on the dashboard.
  if (!/\/dashboard$/.test(page.url())) await page.goto(url('/dashboard'));
  await page.getByRole('button', { name: 'Sign out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

function codeFor(secret: string, stepsAhead = 0): string {
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

test('authenticator app from the QR secret, sign in with a code and with a recovery code, then turn it off', async ({
  page,
  consoleErrors,
}) => {
  const username = await register(page);
  await enterPassword(page, username);
  await expectDashboard(page);

  await page.goto(url('/dashboard/settings/security'));
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('Off', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Set up authenticator app' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();

  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByLabel('Secret for manual entry').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel('Enter the 6-digit code the app shows').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();

  const list = section.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  expect(recoveryCodes[0]).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('olympus-recovery-codes.txt');
  await section.getByRole('button', { name: 'Copy' }).click();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  await expect(section.getByText('10 of 10 recovery codes left.')).toBeVisible();

  // Password, then a code. The enable code's step is spent, so the next step's code (one step of drift is accepted).
  await signOut(page);
  await enterPassword(page, username);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await codeField.fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page);

  // A recovery code signs in once.
  await signOut(page);
  await enterPassword(page, username);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page);

  await signOut(page);
  await enterPassword(page, username);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not valid or has already been used' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Recovery code').fill(recoveryCodes[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page);

  // Turn two-factor off: the password alone signs in again.
  await page.goto(url('/dashboard/settings/security'));
  await expect(section.getByText('8 of 10 recovery codes left.')).toBeVisible();
  await section.getByRole('button', { name: 'Turn off two-factor' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByLabel('Authentication code or recovery code').fill(recoveryCodes[2]!);
  await section.getByRole('button', { name: 'Turn off two-factor' }).click();
  await expect(section.getByText('Off', { exact: true })).toBeVisible();
  await signOut(page);
  await enterPassword(page, username);
  await expectDashboard(page);
  expect(consoleErrors).toEqual([]);
});

test('add a passkey in settings and sign in with it alone (Chromium virtual authenticator)', async ({ page, consoleErrors }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const username = await register(page);
  await enterPassword(page, username);
  await expectDashboard(page);
  await page.goto(url('/dashboard/settings/security'));
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
  await passkeys.getByLabel('Passkey name').fill('Virtual laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  // A new way into the account: the password first (a stolen session alone cannot add one).
  await passkeys.getByRole('button', { name: 'Continue to your device' }).click();
  await expect(passkeys.getByText('Current password is required')).toBeVisible();
  await passkeys.getByLabel('Current password').fill(PASSWORD);
  await passkeys.getByRole('button', { name: 'Continue to your device' }).click();
  const item = passkeys.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Virtual laptop');
  await expect(item).toContainText('never used');

  // No username, no password: the browser offers the discoverable passkey.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectDashboard(page);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${username}` })).toBeVisible();

  await page.goto(url('/dashboard/settings/security'));
  await expect(item).toContainText('last used');
  // A passkey is a second factor: removing one is confirmed with a passkey in the same form (decision 0205).
  await passkeys.getByRole('button', { name: 'Remove passkey Virtual laptop' }).click();
  const confirm = passkeys.getByRole('form', { name: 'Remove passkey Virtual laptop' });
  await confirm.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(confirm.getByRole('alert').filter({ hasText: 'confirm this change with a passkey' })).toBeVisible();
  await expect(item).toHaveCount(1);
  await confirm.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();

  // Removed: the authenticator still holds it, but the server no longer accepts it.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be used' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(consoleErrors).toEqual([]);
});

test('a passkey answers the second step of a password sign-in', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const username = await register(page);
  await enterPassword(page, username);
  await expectDashboard(page);
  await page.goto(url('/dashboard/settings/security'));
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByLabel('Passkey name').fill('Phone');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByLabel('Current password').fill(PASSWORD);
  await passkeys.getByRole('button', { name: 'Continue to your device' }).click();
  await expect(passkeys.getByRole('list', { name: 'Your passkeys' }).getByText('Phone')).toBeVisible();
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up authenticator app' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  const secret = (await section.getByLabel('Secret for manual entry').innerText()).replace(/\s+/g, '');
  await section.getByLabel('Enter the 6-digit code the app shows').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await section.getByRole('button', { name: 'I have saved them' }).click();

  await signOut(page);
  await enterPassword(page, username);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expectDashboard(page);
});

test('a change of address and turning two-factor off need the code in the same form', async ({ page, consoleErrors }) => {
  const username = await register(page);
  await enterPassword(page, username);
  await expectDashboard(page);
  await page.goto(url('/dashboard/settings/security'));
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up authenticator app' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  const secret = (await section.getByLabel('Secret for manual entry').innerText()).replace(/\s+/g, '');
  await section.getByLabel('Enter the 6-digit code the app shows').fill(codeFor(secret, -1));
  await expect(section.getByLabel('Sign out every other session')).toBeChecked();
  await section.getByRole('button', { name: 'Turn on' }).click();
  // Read the codes once they are shown (allInnerTexts does not wait for them).
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allInnerTexts()).map((c) => c.trim());
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('On', { exact: true })).toBeVisible();

  // A new address (Settings → Account): the password alone is refused, with the reason on the code field.
  await page.goto(url('/dashboard/settings/account'));
  const email = page.getByRole('region', { name: 'Email address' });
  await email.getByLabel('New email address').fill(`${username}-new@example.com`);
  await email.getByLabel('Current password').fill(PASSWORD);
  await email.getByRole('button', { name: 'Change email address' }).click();
  await expect(email.getByRole('alert').filter({ hasText: 'Two-factor sign-in is on for this account' })).toBeVisible();
  const emailCode = email.getByLabel('Authentication code or recovery code');
  await expect(emailCode).toBeFocused();
  await emailCode.fill(codeFor(secret));
  await email.getByRole('button', { name: 'Change email address' }).click();
  await expect(email.getByRole('status')).toContainText(`We sent a confirmation link to ${username}-new@example.com`);

  // Turning two-factor off: refused without the code, done with a recovery code.
  await page.goto(url('/dashboard/settings/security'));
  await section.getByRole('button', { name: 'Turn off two-factor' }).click();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Turn off two-factor' }).click();
  await expect(section.getByRole('alert').filter({ hasText: 'Two-factor sign-in is on for this account' })).toBeVisible();
  await expect(section.getByText('Off', { exact: true })).toHaveCount(0);
  await section.getByLabel('Authentication code or recovery code').fill(recoveryCodes[0]!);
  await section.getByRole('button', { name: 'Turn off two-factor' }).click();
  await expect(section.getByText('Off', { exact: true })).toBeVisible();
  // Off: the change of address asks for the password only again.
  await expect(email.getByLabel('Authentication code or recovery code')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test.describe('on a bare IP address', () => {
  test('login and settings say why passkeys are unavailable and point to localhost', async ({ page }) => {
    // The same server, reached as http://127.0.0.1:<port>: the browser would refuse WebAuthn here.
    const byIp = server.url.replace('//localhost:', '//127.0.0.1:');
    await page.goto(`${byIp}/login`);
    await expect(page.getByRole('note').filter({ hasText: 'Passkeys need a domain name' })).toContainText('localhost');
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);

    const username = await register(page);
    const res = await page.request.post(`${byIp}/api/login`, { data: { username, password: PASSWORD, turnstileToken: 'ok' } });
    const { token } = (await res.json()) as { token: string };
    await page.evaluate((t) => {
      window.localStorage.setItem('token', t);
      window.localStorage.setItem('userType', 'user');
    }, token);
    await page.goto(`${byIp}/dashboard/settings/security`);
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await expect(passkeys.getByRole('note')).toContainText('bare IP address');
    await expect(passkeys.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  });
});
