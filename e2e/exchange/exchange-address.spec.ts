import { expect, signIn, test } from '../support/fixtures.js';

// The bell's link to the exchange is part of what is tested: keep the live stream.
test.use({ liveNotifications: true });

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

/**
 * An exchange has an address (docs/decisions/0317-an-exchange-has-an-address.md): it opens from its URL,
 * after a reload, and from its notice; Back returns where the person was; someone else's is not shown.
 */
test('an exchange opens from its address, after a reload and from its notice; Back works; not for someone else', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const { token } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  const created = await page.request.post('/api/exchange/exchanges', {
    data: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS },
    headers: auth,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { exchange } = ((await created.json()) as { data: { exchange: { _id: string; providerExchangeId: string } } }).data;
  const address = `/dashboard/exchanges/${exchange._id}`;

  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: 'Exchange' })).toBeVisible();
  await expect(page.getByTestId('exchange-status')).toHaveText('Waiting for your deposit...');
  await expect(page.getByText(exchange._id)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('exchange-status')).toHaveText('Waiting for your deposit...');

  // The swap finishes at the provider; the page follows it, and the notice links back here.
  for (const status of ['confirming', 'finished']) {
    const moved = await page.request.post(`/sandbox/swap/exchanges/${exchange.providerExchangeId}/status`, { data: { status } });
    expect(moved.ok()).toBe(true);
  }
  await expect(page.getByTestId('exchange-status')).toHaveText('Exchange finished! The coins are on their way to your address.', {
    timeout: 20_000,
  });

  await page.goto('/dashboard');
  await page.getByTestId('notification-bell').click();
  const notice = page.getByRole('region', { name: 'Notifications', exact: true }).getByRole('link', { name: /Exchange finished/ });
  await expect(notice).toHaveAttribute('href', address);
  await notice.press('Enter');
  await expect(page).toHaveURL(address);
  await expect(page.getByTestId('exchange-status')).toHaveText('Exchange finished! The coins are on their way to your address.');
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);

  // "Start another exchange" goes to the exchange page's form.
  await page.goto(address);
  await page.getByRole('button', { name: 'Start another exchange' }).click();
  await expect(page).toHaveURL(/\/dashboard\/exchanges$/);
  expect(consoleErrors).toEqual([]);

  // Someone else's exchange id shows nothing of it.
  const stranger = await browser.newPage();
  await signIn(stranger);
  await stranger.goto(address);
  await expect(stranger.getByRole('alert')).toContainText('We could not find this exchange in your account.');
  await expect(stranger.getByTestId('exchange-status')).toHaveCount(0);
  await stranger.close();
});
