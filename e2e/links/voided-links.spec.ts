import type { APIRequestContext } from '@playwright/test';
import { expect, registerUser, test } from '../support/fixtures.js';

/**
 * A link whose account changed after it was sent (decision 0200) says so in the browser, like an expired
 * one, and the account stays as it is. Links are read from the mail sandbox and opened in Chromium.
 */

const PASSWORD = 'correct horse battery staple';

interface Mail {
  subject: string;
  text: string;
}

async function linkFromMail(request: APIRequestContext, to: string, subject: string, path: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/sandbox/mail/messages?to=${encodeURIComponent(to)}`);
        const mail = ((await res.json()) as { messages: Mail[] }).messages.find((m) => m.subject === subject);
        link = mail ? (new RegExp(`https?://\\S+?(${path}\\?token=[A-Za-z0-9_.%-]+)`).exec(mail.text)?.[1] ?? '') : '';
        return link;
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .not.toBe('');
  return link;
}

test('a reset link sent before the account moved to a new address is no longer valid', async ({ page, consoleErrors }) => {
  const account = await registerUser(page);
  const oldEmail = `${account.username}@example.com`;
  const newEmail = `${account.username}@new.example.org`;

  expect((await page.request.post('/api/auth/forgot-password', { data: { email: oldEmail } })).status()).toBe(202);
  const resetLink = await linkFromMail(page.request, oldEmail, 'Reset your password', '/reset-password');

  const auth = { authorization: `Bearer ${account.token}` };
  expect(
    (await page.request.put('/api/users/email', { headers: auth, data: { email: newEmail, currentPassword: PASSWORD } })).status(),
  ).toBe(202);
  const confirmLink = await linkFromMail(page.request, newEmail, 'Confirm your new email address', '/confirm-email');
  const token = new URL(confirmLink, 'http://x').searchParams.get('token');
  expect((await page.request.post('/api/auth/confirm-email-change', { data: { token } })).status()).toBe(200);

  await page.goto(resetLink);
  await page.getByLabel('New password', { exact: true }).fill('an attacker passphrase');
  await page.getByLabel('Repeat the new password').fill('an attacker passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This link is no longer valid' })).toBeVisible();
  await expect(page.getByText('your account changed after it was sent')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();

  // The password did not change.
  const login = await page.request.post('/api/login', { data: { username: account.username, password: PASSWORD, turnstileToken: 'ok' } });
  expect(login.status()).toBe(200);
  expect(consoleErrors).toEqual([]);
});

test('a change-of-address link asked for before a password change is no longer valid', async ({ page, consoleErrors }) => {
  const account = await registerUser(page);
  const email = `${account.username}@elsewhere.example.org`;
  const auth = { authorization: `Bearer ${account.token}` };
  expect((await page.request.put('/api/users/email', { headers: auth, data: { email, currentPassword: PASSWORD } })).status()).toBe(202);
  const confirmLink = await linkFromMail(page.request, email, 'Confirm your new email address', '/confirm-email');
  const changed = await page.request.post('/api/users/change-password', {
    headers: auth,
    data: { currentPassword: PASSWORD, newPassword: 'the owner changed it' },
  });
  expect(changed.status()).toBe(200);

  await page.goto(confirmLink);
  await page.getByRole('button', { name: 'Use this address' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This link is no longer valid' })).toBeVisible();
  await expect(page.getByText('your account changed after it was sent')).toBeVisible();

  const me = await page.request.get('/api/auth/me', { headers: auth });
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(`${account.username}@example.com`);
  expect(consoleErrors).toEqual([]);
});
