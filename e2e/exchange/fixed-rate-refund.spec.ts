import { expect, test } from '../support/fixtures.js';

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

test('the limits show before typing, an amount below the minimum is refused, and a fixed-rate exchange with a refund address is created', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'See how swaps work' }).click();
  const section = page.locator('section#exchange');
  await expect(section.getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeVisible();

  // BTC to ETH is the default pair; the sandbox's limits are 10 USD and 130,000 USD at 65,000 USD per BTC.
  await expect(section.getByTestId('exchange-range')).toHaveText('Min 0.00015385 BTC · Max 2 BTC');
  const amount = section.getByLabel('Amount to send (BTC)');
  await amount.fill('0.0001');
  const limits = 'The amount must be between 0.00015385 BTC and 2 BTC for this pair';
  await expect(section.getByText(limits)).toBeVisible();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await section.getByLabel('Your ETH payout address').fill(ETH_ADDRESS);
  await section.getByRole('button', { name: 'Exchange now' }).click();
  await expect(section.getByText(limits)).toBeVisible();
  await expect(section.getByTestId('deposit-address')).toHaveCount(0);

  // A fixed rate: the estimate says so, until when, and counts down.
  await amount.fill('0.01');
  await expect(section.getByTestId('estimate-rate')).toHaveText('Floating rate, may change');
  await section.getByRole('radio', { name: /Fixed rate/ }).check();
  await expect(section.getByTestId('estimate-rate')).toHaveText(/^Fixed rate, valid until \d\d:\d\d:\d\d \((9:\d\d|10:00) left\)$/);
  await expect(section.getByTestId('estimate-amount')).toHaveText('0.20109375 ETH');

  await section.getByText('Refund address (optional)').click();
  await section.getByLabel('Your BTC refund address').fill(BTC_ADDRESS.slice(0, -1) + 'x');
  await section.getByRole('button', { name: 'Exchange now' }).click();
  await expect(section.getByText('That is not a valid BTC refund address')).toBeVisible();
  await section.getByLabel('Your BTC refund address').fill(BTC_ADDRESS);
  await section.getByRole('button', { name: 'Exchange now' }).click();

  await expect(section.getByTestId('deposit-address')).toHaveText(/^bc1q/);
  await expect(section.getByTestId('exchange-rate-type')).toHaveText(/^Fixed rate, deposit before \d\d:\d\d:\d\d$/);
  await expect(section.getByTestId('exchange-refund-address')).toHaveText(BTC_ADDRESS);
  await expect(section.getByText('0.20109375 ETH')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
