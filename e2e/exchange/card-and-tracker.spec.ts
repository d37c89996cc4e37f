import { expect, signIn, test } from '../support/fixtures.js';

// The recent-exchanges card follows the live channel: keep the stream.
test.use({ liveNotifications: true });

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const STEPS = [
  ['confirming', 'Deposit detected! Waiting for blockchain confirmation...'],
  ['exchanging', 'Exchanging your coins...'],
  ['sending', 'Sending the coins to your address...'],
  ['finished', 'Exchange finished! The coins are on their way to your address.'],
] as const;

/**
 * A swap's tracker and its row in "Your recent exchanges" say the same thing at every step, without a
 * reload; the row is a link to the exchange's own address (docs/decisions/0321-dashboard-shell.md).
 */
test('the exchange form, its tracker and the recent-exchanges card agree at every step of a swap', async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  const { token } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);

  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard', exact: true }).getByRole('link', { name: 'Exchange' }).click();
  await expect(page).toHaveURL(/\/dashboard\/exchanges$/);
  const section = page.locator('section#exchange');
  await section.getByLabel('Amount to send (BTC)').fill('0.01');
  await section.getByLabel('Your ETH payout address').fill(ETH_ADDRESS);
  await section.getByRole('button', { name: 'Exchange now' }).click();
  await expect(section.getByTestId('deposit-address')).toHaveText(/^bc1q/);

  const tracker = section.getByTestId('exchange-status');
  const card = page.getByRole('region', { name: 'Your recent exchanges' });
  const row = card.getByRole('listitem').filter({ hasText: '0.01 BTC → ETH' });
  await expect(tracker).toHaveText('Waiting for your deposit...');
  await expect(row).toContainText('Waiting for your deposit...');

  type Listed = { exchanges: { _id: string; providerExchangeId: string }[] };
  const body = (await (await page.request.get('/api/exchange/exchanges?pageSize=10', { headers: auth })).json()) as
    Listed | { data: Listed };
  const [exchange] = ('data' in body ? body.data : body).exchanges;
  expect(exchange).toBeDefined();

  for (const [status, message] of STEPS) {
    const moved = await page.request.post(`/sandbox/swap/exchanges/${exchange!.providerExchangeId}/status`, { data: { status } });
    expect(moved.ok()).toBe(true);
    await expect(tracker, `the tracker at ${status}`).toHaveText(message, { timeout: 20_000 });
    // The card hears the same change on the live channel, not on its next poll.
    await expect(row, `the card at ${status}`).toContainText(message, { timeout: 5_000 });
  }

  // The row is a link to the exchange's address, which tells the same.
  await row.getByRole('link', { name: '0.01 BTC → ETH' }).click();
  await expect(page).toHaveURL(`/dashboard/exchanges/${exchange!._id}`);
  await expect(page.getByTestId('exchange-status')).toHaveText(STEPS[3][1]);
  await expect(page.getByRole('navigation', { name: 'Dashboard', exact: true }).getByRole('link', { name: 'Exchange' })).toHaveAttribute(
    'aria-current',
    'location',
  );
  expect(consoleErrors).toEqual([]);
});
