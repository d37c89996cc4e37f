import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * A newcomer drives the whole flow offline (decision 0231): the payment page's Sandbox panel moves the
 * payment to "finished" and the credit shows; no request leaves this machine on the payment page or
 * through the Discord sandbox, whose avatar is served locally.
 */

/** Every request the page makes to anything but this machine (data: and blob: URLs stay in the page). */
function watchOutsideRequests(page: Page): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) outside.push(request.url());
  });
  return outside;
}

async function publicOrigin(page: Page): Promise<string> {
  const res = await page.request.get('/api/auth/telegram/config');
  const { authUrl } = (await res.json()) as { authUrl: string };
  return new URL(authUrl).origin;
}

test('top up through the Sandbox panel to finished and see the credit, with nothing loaded from the internet', async ({
  page,
  consoleErrors,
}) => {
  const outside = watchOutsideRequests(page);
  const { token } = await signIn(page);
  expect(
    (await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } })).status(),
  ).toBe(200);
  await page.goto('/dashboard/wallet');

  const topUp = page.getByRole('region', { name: 'Top up credits' });
  await topUp.getByLabel('Search currencies').fill('bitc');
  await topUp.getByRole('radio', { name: /Bitcoin/ }).check();
  await topUp.getByLabel('Amount (USD)').fill('100');
  await topUp.getByRole('button', { name: 'Pay with BTC' }).click();
  await expect(page).toHaveURL(/\/payment\/process\?/);
  await expect(page.getByTestId('payment-status-message')).toHaveText('Waiting for payment...');

  const panel = page.getByRole('complementary', { name: 'Move this payment' });
  await expect(panel.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(panel.getByRole('group', { name: 'Move this payment to' }).getByRole('button')).toHaveText([
    'Waiting',
    'Confirming',
    'Confirmed',
    'Sending',
    'Partially paid',
    'Finished',
    'Failed',
    'Refunded',
    'Expired',
  ]);
  await page.setViewportSize({ width: 375, height: 900 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/sandbox-panel-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/sandbox-panel-1280.png', fullPage: true });

  // Each click moves the payment at the sandbox, which sends the signed IPN; the page looks at once.
  await panel.getByRole('button', { name: 'Confirming' }).click();
  await expect(panel.getByRole('status')).toHaveText('Moved to "Confirming".');
  await expect(page.getByTestId('payment-status-message')).toHaveText('Payment detected! Waiting for blockchain confirmation...');
  await panel.getByRole('button', { name: 'Finished' }).click();

  await expect(page).toHaveURL(/\/payment\/complete\?id=/);
  await expect(page.getByTestId('complete-credits')).toHaveText('97.00');
  await expect(page.getByTestId('complete-balance')).toHaveText('97.00 credits');
  await page.getByRole('link', { name: 'Back to my wallet' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('97.00');

  expect(outside).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('connecting Discord through its sandbox loads nothing from the internet, and the avatar is served locally', async ({
  page,
  consoleErrors,
}) => {
  const outside = watchOutsideRequests(page);
  const origin = await publicOrigin(page);
  await signIn(page);
  await page.goto(`${origin}/dashboard/settings/connections`);
  const discord = page.getByRole('listitem', { name: 'Discord' });
  await discord.getByRole('button', { name: 'Connect Discord' }).click();

  await expect(page.getByRole('heading', { name: 'Olympus wants to access your Discord account' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/sandbox/discord/oauth2/authorize');
  const name = `dc_${Date.now().toString(36)}`;
  await page.getByLabel('Sandbox Discord username').fill(name);
  await page.getByRole('button', { name: 'Authorize' }).click();

  await expect(page).toHaveURL(/\/dashboard\/settings\/connections#connections$/);
  await expect(discord).toContainText(`Connected as @${name}`);
  const avatar = discord.locator('img.connection-avatar');
  await expect(avatar).toHaveAttribute('src', /^\/sandbox\/discord\/avatars\/\d+\/[0-9a-f]{32}\.svg$/);
  // The avatar loads lazily, as a person scrolls to it (settings is a long page).
  await avatar.scrollIntoViewIfNeeded();
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  expect(outside).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('a guest drives an exchange to finished through the Sandbox panel', async ({ page, consoleErrors }) => {
  const outside = watchOutsideRequests(page);
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'See how swaps work' }).click();
  const section = page.locator('section#exchange');
  const send = section.getByRole('combobox', { name: 'You send' });
  await send.click();
  await send.fill('bitc');
  await section.getByRole('option', { name: /Bitcoin/ }).click();
  const get = section.getByRole('combobox', { name: 'You get' });
  await get.click();
  await get.fill('ether');
  await section.getByRole('option', { name: /Ethereum/ }).click();
  await section.getByLabel('Amount to send (BTC)').fill('0.01');
  await section.getByLabel('Your ETH payout address').fill('0x742d35Cc6634C0532925a3b844Bc454e4438f44e');
  await section.getByRole('button', { name: 'Exchange now' }).click();
  await expect(section.getByTestId('exchange-status')).toHaveText('Waiting for your deposit...');

  const panel = section.getByRole('complementary', { name: 'Move this exchange' });
  await expect(panel.getByText('Sandbox', { exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Exchanging' }).click();
  await expect(section.getByTestId('exchange-status')).toHaveText('Exchanging your coins...');
  await page.setViewportSize({ width: 375, height: 900 });
  await section.screenshot({ path: 'test-results/sandbox-exchange-375.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await section.screenshot({ path: 'test-results/sandbox-exchange-1280.png' });
  await panel.getByRole('button', { name: 'Finished' }).click();
  await expect(section.getByTestId('exchange-status')).toHaveText('Exchange finished! The coins are on their way to your address.');

  expect(outside).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
