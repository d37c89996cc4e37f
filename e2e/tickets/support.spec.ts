import { expect, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

test('a guest opens a ticket, support answers it, and the guest keeps it after registering', async ({ page, browser, consoleErrors }) => {
  const subject = `Where is my deposit ${Date.now().toString(36)}`;

  // The guest opens a ticket from the guest dashboard.
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Support tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Support', exact: true })).toBeVisible();
  await expect(page.getByText('No tickets yet')).toBeVisible();
  await page.getByRole('button', { name: 'New ticket' }).click();
  const dialog = page.getByRole('dialog', { name: 'New support ticket' });
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByLabel('Category').selectOption('payments');
  await dialog.getByLabel('How can we help?').fill('I sent 0.01 BTC an hour ago and see nothing.');
  await dialog.getByRole('button', { name: 'Create ticket' }).click();
  await expect(dialog).toBeHidden();
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(thread.getByText('I sent 0.01 BTC an hour ago and see nothing.')).toBeVisible();
  // The open ticket is the page's address.
  await expect(page).toHaveURL(/\/dashboard\/support\/[0-9a-f-]{36}$/);
  const ticketUrl = page.url();

  // A support account finds it in the queue and answers.
  const support = await staffPage(browser, 'support');
  await support.getByRole('link', { name: 'Staff console' }).click();
  await support.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Tickets' }).click();
  await support.getByRole('searchbox').fill(subject);
  await support.getByRole('link', { name: new RegExp(subject) }).click();
  await support.getByLabel('Your reply').fill('Found it: your payment is confirming. Credits follow within minutes.');
  await support.getByRole('button', { name: 'Send reply' }).click();
  await expect(
    support.getByRole('list', { name: 'Messages' }).getByText('Found it: your payment is confirming.', { exact: false }),
  ).toBeVisible();
  await support.context().close();

  // The guest sees the answer without reloading (the open ticket polls).
  await expect(thread.getByText('Found it: your payment is confirming.', { exact: false })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Waiting for you')).toBeVisible();

  // A reload opens the same ticket; Back leaves it for the list; the answer's notice opens it again.
  await page.reload();
  await expect(thread.getByText('Found it: your payment is confirming.', { exact: false })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/support$/);
  await expect(page.getByRole('list', { name: 'Your tickets' }).getByRole('link', { name: new RegExp(subject) })).toBeVisible();
  await page.getByTestId('notification-bell').click();
  const notice = page.getByRole('link', { name: /New reply on ticket #\d+/ }).first();
  // Followed from the keyboard: a pointer click aims at the first box of the link, which is its 1 px
  // "Unread:" text for screen readers, and Playwright finds the item under that point instead.
  await notice.press('Enter');
  await expect(page).toHaveURL(ticketUrl);
  await expect(thread.getByText('Found it: your payment is confirming.', { exact: false })).toBeVisible();

  // The guest registers; the ticket is now the account's.
  const username = `e2e_t_${Date.now().toString(36)}`;
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/support');
  await expect(page.getByRole('link', { name: new RegExp(subject) })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(subject) }).click();
  await expect(
    page.getByRole('list', { name: 'Messages' }).getByText('Found it: your payment is confirming.', { exact: false }),
  ).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
