import type { Page } from '@playwright/test';
import { expect, quietNotificationStream, test } from '../support/fixtures.js';
import { guestSession, registerPastOnboarding } from '../support/seed.js';

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const PASSWORD = 'correct horse battery staple';

interface StoredClaim {
  claimCode: string;
  potentialRewards: number;
  claimDeadline: number;
  timestamp: number;
}

const storedClaims = (page: Page) =>
  page.evaluate(() => JSON.parse(window.localStorage.getItem('olympus_reward_claims') ?? 'null') as Record<string, StoredClaim> | null);

test('a guest exchanges, the swap finishes, the guest registers and gets the reward credited', async ({ page, context, consoleErrors }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  // The panel loads as the visitor heads for it.
  await page.getByRole('main').getByRole('link', { name: 'See how swaps work' }).click();
  const section = page.locator('section#exchange');
  await expect(section.getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeVisible();

  // Pick the pair through the searchable selects: type to filter, Enter to choose.
  const send = section.getByRole('combobox', { name: 'You send' });
  await send.click();
  await send.fill('bitc');
  await expect(section.getByRole('option', { name: /Bitcoin/ })).toBeVisible();
  await send.press('Enter');
  await expect(send).toHaveValue('Bitcoin (BTC)');
  const get = section.getByRole('combobox', { name: 'You get' });
  await get.click();
  await get.fill('ether');
  await section.getByRole('option', { name: /Ethereum/ }).click();
  await expect(get).toHaveValue('Ethereum (ETH)');

  // 0.01 BTC at the sandbox's prices: 0.203125 ETH, 650 USD, a 0.5 % reward of 3.25 credits.
  await section.getByLabel('Amount to send (BTC)').fill('0.01');
  await expect(section.getByTestId('estimate-amount')).toHaveText('0.203125 ETH');
  await expect(section.getByTestId('estimate-reward')).toHaveText('3.25 credits');

  // A wrong checksum is refused with the server's field message.
  await section.getByLabel('Your ETH payout address').fill(ETH_ADDRESS.slice(0, -1) + 'F');
  await section.getByRole('button', { name: 'Exchange now' }).click();
  await expect(section.getByText('That is not a valid ETH address')).toBeVisible();

  await section.getByLabel('Your ETH payout address').fill(ETH_ADDRESS);
  await section.getByRole('button', { name: 'Exchange now' }).click();

  // The deposit address with its QR code and copy button.
  const address = section.getByTestId('deposit-address');
  await expect(address).toHaveText(/^bc1q/);
  await expect(section.getByRole('img', { name: 'QR code of the BTC deposit address' })).toBeVisible();
  await section.getByRole('button', { name: 'Copy deposit address' }).click();
  await expect(section.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await address.textContent());
  await expect(section.getByRole('button', { name: 'Copy deposit address' })).toBeVisible({ timeout: 4000 });
  await expect(section.getByTestId('exchange-status')).toHaveText('Waiting for your deposit...');

  // The claim is kept in this browser, keyed by exchange id, for 720 hours.
  const claimCode = (await section.getByTestId('claim-code').textContent())!;
  const claims = await storedClaims(page);
  const [exchangeId] = Object.keys(claims ?? {});
  expect(claims?.[exchangeId!]).toMatchObject({ claimCode, potentialRewards: 3.25 });
  const claim = claims![exchangeId!]!;
  expect(claim.claimDeadline - claim.timestamp).toBeGreaterThan(719 * 3600_000);
  await expect(section.getByTestId('pending-rewards-total')).toHaveText('3.25 credits');

  // The provider finishes the swap (the sandbox's control endpoint); the page follows it live.
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const own = await page.request.get(`/api/exchange/exchanges/${exchangeId}`, { headers: { authorization: `Bearer ${token}` } });
  const { exchange } = (await own.json()) as { exchange: { providerExchangeId: string } };
  for (const status of ['confirming', 'finished']) {
    const moved = await page.request.post(`/sandbox/swap/exchanges/${exchange.providerExchangeId}/status`, { data: { status } });
    expect(moved.ok()).toBe(true);
  }
  await expect(section.getByTestId('exchange-status')).toHaveText('Exchange finished! The coins are on their way to your address.', {
    timeout: 15_000,
  });

  // Register: the claim is redeemed after sign-in.
  await section.getByRole('link', { name: 'Create an account' }).first().click();
  const username = `swap_${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText('Claimed 3.25 credits from previous exchanges!')).toBeVisible();
  await expect.poll(() => storedClaims(page)).toBeNull();

  await expect(page.getByRole('heading', { name: 'Welcome to Olympus' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Go to my dashboard' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('3.25');
  expect(consoleErrors).toEqual([]);
});

test("a guest's claim code, typed on another browser after signing up there, credits the reward once", async ({ browser, request }) => {
  // The guest swaps on one device: a guest session of its own, the claim code shown once.
  const guest = await guestSession(request);
  const guestAuth = { authorization: `Bearer ${guest.token}`, 'guest-id': guest.guestId };
  const created = await request.post('/api/exchange/exchanges', {
    data: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS },
    headers: guestAuth,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { data } = (await created.json()) as {
    data: { exchange: { _id: string; providerExchangeId: string }; rewards: { claimCode: string; potentialAmount: number } };
  };
  expect(data.rewards.potentialAmount).toBe(3.25);
  for (const status of ['confirming', 'finished']) {
    const moved = await request.post(`/sandbox/swap/exchanges/${data.exchange.providerExchangeId}/status`, { data: { status } });
    expect(moved.ok()).toBe(true);
  }

  // Another browser, nothing in its storage: the person signs up there and types what they kept.
  const { token } = await registerPastOnboarding(request, 'claimer');
  const context = await browser.newContext();
  await quietNotificationStream(context);
  await context.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
  const page = await context.newPage();
  await page.goto('/dashboard/exchanges');
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  const form = page.getByRole('form', { name: 'Claim a reward' });

  // Nothing typed: each field says what it needs, and the first has the focus.
  await form.getByRole('button', { name: 'Claim reward' }).click();
  await expect(form.getByText('Enter the exchange id')).toBeVisible();
  await expect(form.getByText('Enter the claim code')).toBeVisible();
  await expect(form.getByLabel('Exchange id')).toBeFocused();

  // A wrong code claims nothing.
  await form.getByLabel('Exchange id').fill(data.exchange._id);
  // Its last character changed (a random code ends in 'x' once in 64 times: then it becomes 'y').
  const code = data.rewards.claimCode;
  await form.getByLabel('Claim code').fill(`${code.slice(0, -1)}${code.endsWith('x') ? 'y' : 'x'}`);
  await form.getByRole('button', { name: 'Claim reward' }).click();
  const outcome = page.getByTestId('claim-reward-outcome');
  await expect(outcome).toHaveText(/^No reward is waiting for this exchange id and claim code/);
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');

  // The right one, with the spaces a copy may bring: credited, and the balance follows.
  await form.getByLabel('Claim code').fill(` ${data.rewards.claimCode} `);
  await form.getByRole('button', { name: 'Claim reward' }).click();
  await expect(outcome).toHaveText('Claimed: 3.25 credits were added to your balance.');
  await expect(page.getByTestId('credit-balance')).toHaveText('3.25');
  await expect(form.getByLabel('Claim code')).toHaveValue('');

  // The same code again: nothing more.
  await form.getByLabel('Exchange id').fill(data.exchange._id);
  await form.getByLabel('Claim code').fill(data.rewards.claimCode);
  await form.getByRole('button', { name: 'Claim reward' }).click();
  await expect(outcome).toHaveText(/^No reward is waiting/);
  await page.reload();
  await expect(page.getByTestId('credit-balance')).toHaveText('3.25');
  await context.close();
});
