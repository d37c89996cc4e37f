import type { Locator, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expect, test } from '../support/fixtures.js';
import { movePayment, registerPastOnboarding, staffToken, startTopUp } from '../support/seed.js';

/**
 * The paths where money moves or an account is protected, done with the keyboard alone (decision 0241):
 * Tab and Shift+Tab to move, Enter and Space to press, arrow keys in radio groups, typing into fields.
 * No mouse click anywhere, and every control reached shows where the focus is.
 */

const PASSWORD = 'correct horse battery staple';

// Generous: a busy machine types slowly.
test.describe.configure({ timeout: 180_000 });

/** Focus is on `target`, and it shows: :focus-visible matches and an outline or ring is drawn. */
async function expectVisibleFocus(target: Locator, what: string): Promise<void> {
  await expect(target, `${what} has the focus`).toBeFocused();
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none';
    return { focusVisible: el.matches(':focus-visible'), drawn: outline || shadow };
  });
  expect(ring, `${what} shows its focus`).toEqual({ focusVisible: true, drawn: true });
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, at most `max` times; then checks the focus shows. */
async function tabTo(page: Page, target: Locator, what: string, { back = false, max = 120 } = {}): Promise<void> {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return expectVisibleFocus(target, what);
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${what}: not reached with ${back ? 'Shift+Tab' : 'Tab'} in ${max} presses`);
}

async function signInBrowser(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
}

test('top up with the keyboard only: dashboard, currency, amount, Pay, and the payment page', async ({ page, consoleErrors }) => {
  const { token } = await registerPastOnboarding(page.request, 'kb');
  await signInBrowser(page, token);
  await page.goto('/dashboard/wallet');
  const panel = page.getByRole('region', { name: 'Top up credits' });

  await tabTo(page, panel.getByLabel('Search currencies'), 'currency search');
  await page.keyboard.type('bitc');
  const bitcoin = panel.getByRole('radio', { name: /Bitcoin/ });
  await tabTo(page, bitcoin, 'Bitcoin');
  await page.keyboard.press('Space');
  await expect(bitcoin).toBeChecked();
  await tabTo(page, panel.getByLabel('Amount (USD)'), 'amount');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('100');
  await expect(panel.getByTestId('topup-credits')).toHaveText('97.00 credits');
  const pay = panel.getByRole('button', { name: 'Pay with BTC' });
  await tabTo(page, pay, 'Pay with BTC');
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/payment\/process\?/);
  await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Payment' })).toBeVisible();
  // The address can be copied from the keyboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copy = page.getByRole('button', { name: /^Copy/ }).first();
  await tabTo(page, copy, 'copy button');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /Copied/ }).first()).toBeVisible();
  // And back with Shift+Tab to the header's Dashboard link.
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).first(), 'Dashboard link', { back: true });
  expect(consoleErrors).toEqual([]);
});

test('buy from the catalogue with the keyboard only: Buy, the confirmation, Enter', async ({ page, consoleErrors }) => {
  const name = `Keyboard item ${Date.now().toString(36)}`;
  const admin = { authorization: `Bearer ${await staffToken(page.request, 'admin')}` };
  const added = await page.request.post('/api/admin/catalogue', {
    data: { name, description: 'Bought without a mouse.', priceCents: 500, stock: null },
    headers: admin,
  });
  expect(added.status(), await added.text()).toBe(201);
  const { token, auth } = await registerPastOnboarding(page.request, 'kb');
  const payment = await startTopUp(page.request, auth, 100);
  await movePayment(page.request, payment.providerPaymentId, 'finished');
  await signInBrowser(page, token);
  await page.goto('/dashboard/shop');
  await expect(page.getByTestId('credit-balance')).toHaveText('97.00');

  const card = page
    .getByRole('region', { name: 'Use your credits' })
    .getByTestId('catalogue-item')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
  const buy = card.getByRole('button', { name: `Buy ${name}` });
  await tabTo(page, buy, 'Buy');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Buy ${name}?` });
  await expect(dialog.getByTestId('buy-balance-after')).toHaveText('92.00 credits');
  const confirm = dialog.getByRole('button', { name: 'Confirm: pay 5.00 credits' });
  await expectVisibleFocus(confirm, 'Confirm');
  // Tab stays inside the dialog: round the dialog's controls and back to Confirm.
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  await tabTo(page, cancel, 'Cancel', { max: 6 });
  await tabTo(page, confirm, 'Confirm again', { max: 6 });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expectVisibleFocus(buy, 'Buy, after the purchase');
  await expect(page.getByTestId('credit-balance')).toHaveText('92.00');
  expect(consoleErrors).toEqual([]);
});

test('set up two-factor sign-in with the keyboard only, typing the code computed from the shown secret', async ({
  page,
  consoleErrors,
}) => {
  const { token } = await registerPastOnboarding(page.request, 'kb');
  await signInBrowser(page, token);
  await page.goto('/dashboard/settings/security');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });

  await tabTo(page, section.getByRole('button', { name: 'Set up authenticator app' }), 'Set up authenticator app');
  await page.keyboard.press('Enter');
  await tabTo(page, section.getByLabel('Current password'), 'current password');
  await page.keyboard.type(PASSWORD);
  await tabTo(page, section.getByRole('button', { name: 'Continue' }), 'Continue');
  await page.keyboard.press('Enter');

  const secretText = section.getByLabel('Secret for manual entry');
  await expect(secretText).toBeVisible();
  const secret = (await secretText.innerText()).replace(/\s+/g, '');
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
  await tabTo(page, section.getByLabel('Enter the 6-digit code the app shows'), 'code field');
  await page.keyboard.type(totp.generate());
  await tabTo(page, section.getByRole('button', { name: 'Turn on' }), 'Turn on');
  await page.keyboard.press('Enter');

  await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await tabTo(page, section.getByRole('button', { name: 'I have saved them' }), 'I have saved them');
  await page.keyboard.press('Space');
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('open a support ticket with the keyboard only: New ticket, the form, a category by arrow keys, Create', async ({
  page,
  consoleErrors,
}) => {
  const { token } = await registerPastOnboarding(page.request, 'kb');
  await signInBrowser(page, token);
  await page.goto('/dashboard');
  // From the dashboard to support by the header's account menu or a link, all by keyboard.
  await page.goto('/dashboard/support');
  await expect(page.getByRole('heading', { name: 'Support', exact: true })).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'New ticket' }), 'New ticket');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New support ticket' });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByLabel('Subject'), 'subject');
  await page.keyboard.type('Keyboard only ticket');
  const category = dialog.getByLabel('Category');
  await tabTo(page, category, 'category');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(category).not.toHaveValue('general');
  const chosen = await category.inputValue();
  await tabTo(page, dialog.getByLabel('How can we help?'), 'message');
  await page.keyboard.type('Typed without touching the mouse.');
  await tabTo(page, dialog.getByRole('button', { name: 'Create ticket' }), 'Create ticket');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Messages' }).getByText('Typed without touching the mouse.')).toBeVisible();
  expect(chosen).not.toBe('general');
  expect(consoleErrors).toEqual([]);
});
