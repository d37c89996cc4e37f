import type { APIRequestContext, Page } from '@playwright/test';
import { expect, registerUser, signIn, test } from '../support/fixtures.js';
import staff from '../support/staff-accounts.json' with { type: 'json' };

/**
 * The mail flows of decision 0130 in Chromium against the mail sandbox: every message is read the way a
 * test reads a mailbox, through GET /sandbox/mail/messages?to=, and its link is opened in the browser.
 */

interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

const PASSWORD = 'correct horse battery staple';

async function mailTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  const res = await request.get(`/sandbox/mail/messages?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

/** Waits for `count` messages with this subject to `to` (sending runs in the background). */
async function waitForMail(request: APIRequestContext, to: string, subject: string, count = 1): Promise<Mail[]> {
  let found: Mail[] = [];
  await expect
    .poll(
      async () => {
        found = (await mailTo(request, to)).filter((m) => m.subject === subject);
        return found.length;
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBeGreaterThanOrEqual(count);
  return found;
}

/** The path and query of the first link to `path` in the text part (links are built from PUBLIC_URL). */
function linkIn(mail: Mail, path: string): string {
  const match = new RegExp(`https?://\\S+?(${path}\\?token=[A-Za-z0-9_.%-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in "${mail.subject}"`);
  return match[1]!;
}

async function skipOnboarding(page: Page): Promise<void> {
  const skip = page.getByRole('button', { name: 'Skip', exact: true });
  const dashboard = page.getByTestId('credit-balance');
  await expect(skip.or(dashboard)).toBeVisible();
  if (await skip.isVisible()) await skip.click();
  await expect(dashboard).toBeVisible();
}

const uniqueName = () => `mail_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('register → "Confirm your email" → the link confirms the address and the dashboard banner goes away', async ({
  page,
  consoleErrors,
}) => {
  const username = uniqueName();
  const email = `${username}@example.com`;
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await skipOnboarding(page);

  const banner = page.getByRole('region', { name: 'Confirm your email address' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(email);

  const [mail] = await waitForMail(page.request, email, 'Confirm your email');
  expect(mail!.html).toContain('Confirm my email');
  await page.goto(linkIn(mail!, '/verify-email'));
  await expect(page.getByRole('heading', { level: 1, name: 'Your email is confirmed' })).toBeVisible();

  await page.getByRole('link', { name: 'Go to my dashboard' }).click();
  await expect(page.getByTestId('credit-balance')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Confirm your email address' })).toHaveCount(0);

  // The same link again: already used, said plainly.
  await page.goto(linkIn(mail!, '/verify-email'));
  await expect(page.getByRole('heading', { level: 1, name: 'This link was already used' })).toBeVisible();
  // One confirmation mail, no more.
  expect((await mailTo(page.request, email)).filter((m) => m.subject === 'Confirm your email')).toHaveLength(1);
  expect(consoleErrors).toEqual([]);
});

test('the banner resends the confirmation link', async ({ page }) => {
  const { username } = await signIn(page);
  const email = `${username}@example.com`;
  await page.goto('/dashboard');
  await skipOnboarding(page);
  await page.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByText('We sent a new confirmation link. Check your inbox.')).toBeVisible();
  const mails = await waitForMail(page.request, email, 'Confirm your email', 2);
  await page.goto(linkIn(mails[0]!, '/verify-email'));
  await expect(page.getByRole('heading', { level: 1, name: 'Your email is confirmed' })).toBeVisible();
});

test('forgot password → mail → reset → the old sessions are refused → log in with the new password', async ({ page, consoleErrors }) => {
  const account = await registerUser(page);
  const email = `${account.username}@example.com`;
  const newPassword = 'a completely new passphrase';

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/If an account uses this address, we sent it a link/)).toBeVisible();

  const [mail] = await waitForMail(page.request, email, 'Reset your password');
  await page.goto(linkIn(mail!, '/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill('something else entirely');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('The two passwords do not match')).toBeVisible();
  // Offered by default: a passkey someone else added would otherwise still sign in.
  await expect(page.getByLabel('Also remove every passkey from the account')).toBeChecked();
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your password was changed' })).toBeVisible();

  // The session from before the reset is over.
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${account.token}` } });
  expect(me.status()).toBe(401);
  await waitForMail(page.request, email, 'Your password was changed');

  await page.getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await skipOnboarding(page);
  // The reset went through the mailbox: the address counts as confirmed.
  await expect(page.getByRole('region', { name: 'Confirm your email address' })).toHaveCount(0);

  // The link works once.
  await page.goto(linkIn(mail!, '/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('another new passphrase');
  await page.getByLabel('Repeat the new password').fill('another new passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This link was already used' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('change of address: a link to the new address, a notice to the old one, and the change when the link is opened', async ({
  page,
  consoleErrors,
}) => {
  const { username } = await signIn(page);
  const oldEmail = `${username}@example.com`;
  const newEmail = `${username}.new@example.org`;
  await page.goto('/dashboard/settings/account');
  const section = page.getByRole('region', { name: 'Email address' });
  await expect(section.getByTestId('current-email')).toHaveText(oldEmail);
  await section.getByLabel('New email address').fill(newEmail);
  await section.getByLabel('Current password').fill('wrong password');
  await section.getByRole('button', { name: 'Change email address' }).click();
  await expect(section.getByText('Current password is incorrect')).toBeVisible();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Change email address' }).click();
  await expect(section.getByText(`We sent a confirmation link to ${newEmail}`)).toBeVisible();
  await expect(section.getByTestId('current-email')).toHaveText(oldEmail);

  await waitForMail(page.request, oldEmail, 'A change of your email address was requested');
  const [confirm] = await waitForMail(page.request, newEmail, 'Confirm your new email address');
  await page.goto(linkIn(confirm!, '/confirm-email'));
  await page.getByRole('button', { name: 'Use this address' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your email address was changed' })).toBeVisible();
  await waitForMail(page.request, oldEmail, 'Your email address was changed');

  await page.goto('/dashboard/settings/account');
  await expect(page.getByRole('region', { name: 'Email address' }).getByTestId('current-email')).toHaveText(newEmail);
  // Reset links now go to the new address.
  const res = await page.request.post('/api/auth/forgot-password', { data: { email: newEmail } });
  expect(res.status()).toBe(202);
  await waitForMail(page.request, newEmail, 'Reset your password');
  expect(consoleErrors).toEqual([]);
});

test('notifications arrive once each: payment credited, staff reply (then unsubscribed), password changed, new device', async ({
  page,
  browser,
}) => {
  const { token, username } = await signIn(page);
  const email = `${username}@example.com`;
  const auth = { authorization: `Bearer ${token}` };

  // Payment credited.
  const deposit = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 100 }, headers: auth });
  expect(deposit.status()).toBe(201);
  const paymentId = ((await deposit.json()) as { payment: { _id: string } }).payment._id;
  const detail = await page.request.get(`/api/payments/${paymentId}`, { headers: auth });
  const providerPaymentId = ((await detail.json()) as { payment: { providerPaymentId: string } }).payment.providerPaymentId;
  const moved = await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status: 'finished' } });
  expect(moved.status()).toBe(200);
  // The same IPN again changes nothing and sends nothing.
  await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status: 'finished' } });
  const [credited] = await waitForMail(page.request, email, 'Payment credited: 97.00 credits');
  expect(credited!.text).toContain('Processing fee: 3.00 USD');
  expect(credited!.text).toContain(`/dashboard/payments/${paymentId}`);

  // A staff reply on the user's ticket.
  const created = await page.request.post('/api/tickets', {
    data: { subject: 'Where is my <b>money</b>?', message: 'Please check my payment.', category: 'general' },
    headers: auth,
  });
  expect(created.status()).toBe(201);
  const createdBody = (await created.json()) as { ticket?: { _id: string }; _id?: string };
  const ticketId = createdBody.ticket?._id ?? createdBody._id!;
  const staffLogin = await page.request.post('/api/login', {
    data: { username: staff.support.username, password: staff.support.password, turnstileToken: 'ok' },
  });
  const staffAuth = { authorization: `Bearer ${((await staffLogin.json()) as { token: string }).token}` };
  const reply = await page.request.post(`/api/staff/tickets/${ticketId}/messages`, {
    data: { message: 'We found it: <script>alert(1)</script> credited now.' },
    headers: staffAuth,
  });
  expect(reply.status()).toBeLessThan(300);
  const [answered] = await waitForMail(page.request, email, await waitForTicketSubject(page.request, email));
  expect(answered!.html).not.toContain('<script>');
  expect(answered!.html).toContain('&lt;script&gt;');
  expect(answered!.html).toContain('&lt;b&gt;money&lt;/b&gt;');

  // The unsubscribe link works without signing in.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  const unsubscribePath = /https?:\/\/\S+?(\/unsubscribe\?token=\S+)/.exec(answered!.text)![1]!;
  await visitor.goto(unsubscribePath);
  await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
  await expect(visitor.getByText('You will no longer receive support ticket notifications by email.')).toBeVisible();
  await anonymous.close();
  await page.request.post(`/api/staff/tickets/${ticketId}/messages`, { data: { message: 'One more note.' }, headers: staffAuth });

  // Password changed in settings.
  await page.goto('/dashboard/settings/notifications');
  await expect(page.getByRole('checkbox', { name: 'Support replied to a ticket by Email' })).not.toBeChecked();
  await page.goto('/dashboard/settings/security');
  const passwordForm = page.getByRole('region', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill(PASSWORD);
  await passwordForm.getByLabel('New password').fill('my second long passphrase');
  await passwordForm.getByRole('button', { name: 'Update password' }).click();
  await expect(passwordForm.getByText('Password updated.', { exact: false })).toBeVisible();
  await waitForMail(page.request, email, 'Your password was changed');

  // A sign-in from another browser.
  const other = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Firefox/140.0',
  });
  const otherLogin = await other.request.post('/api/login', {
    data: { username, password: 'my second long passphrase', turnstileToken: 'ok' },
  });
  expect(otherLogin.status()).toBe(200);
  await other.close();
  const [device] = await waitForMail(page.request, email, 'New sign-in to your account');
  expect(device!.text).toContain('Browser: Firefox on Windows');

  // Give any duplicate time to show up, then count: each arrived once; the reply after unsubscribing did not.
  await page.waitForTimeout(4000);
  const all = await mailTo(page.request, email);
  const count = (subject: RegExp) => all.filter((m) => subject.test(m.subject)).length;
  expect(count(/^Payment credited/)).toBe(1);
  expect(count(/^New reply on ticket/)).toBe(1);
  expect(count(/^Your password was changed$/)).toBe(1);
  expect(count(/^New sign-in to your account$/)).toBe(1);
});

async function waitForTicketSubject(request: APIRequestContext, to: string): Promise<string> {
  let subject = '';
  await expect
    .poll(
      async () => {
        subject = (await mailTo(request, to)).find((m) => /^New reply on ticket #\d+$/.test(m.subject))?.subject ?? '';
        return subject;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return subject;
}

test('the mail sandbox page lists messages newest first and shows both parts', async ({ page }) => {
  const { username } = await registerUser(page);
  const email = `${username}@example.com`;
  await waitForMail(page.request, email, 'Confirm your email');
  await page.goto(`/sandbox/mail?to=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mail sandbox' })).toBeVisible();
  await page.getByRole('link', { name: 'Confirm your email' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Text part' })).toBeVisible();
  await expect(page.locator('pre')).toContainText('/verify-email?token=');
  const frame = page.frameLocator('iframe[title="HTML part of the message"]');
  await expect(frame.getByRole('link', { name: 'Confirm my email' })).toBeVisible();
});
