import { expect, signIn, test } from '../support/fixtures.js';

const PAGES = [
  ['Overview', /\/dashboard$/, /^Welcome, /],
  ['Wallet', /\/dashboard\/wallet$/, 'Wallet'],
  ['Exchange', /\/dashboard\/exchanges$/, 'Exchange'],
  ['Shop and orders', /\/dashboard\/shop$/, 'Shop and orders'],
  ['Advertise', /\/dashboard\/advertise$/, 'Advertise'],
  ['Support', /\/dashboard\/support$/, 'Support'],
] as const;

/**
 * The dashboard as a shell of pages (docs/decisions/0321-dashboard-shell.md): a side navigation marks the
 * page shown, each page has its address and Back works; a phone gets one menu; links of the one-page
 * dashboard open the page that holds their part.
 */
test('the dashboard pages each have an address beside one side navigation; a phone gets one menu; older links land on their page', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const { token } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Dashboard', exact: true });
  for (const [label, url, heading] of PAGES) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav.locator('[aria-current]')).toHaveCount(1);
    await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/advertise$/);
  // No grid row of the overview leaves half of the width empty; the shortcuts lead to each page.
  await page.goto('/dashboard');
  await page
    .getByRole('navigation', { name: 'Dashboard shortcuts' })
    .getByRole('link', { name: /^Wallet/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/wallet$/);
  await page.screenshot({ path: 'test-results/dashboard-wallet-1280.png', fullPage: true });

  // Settings open outside the shell, with their own navigation and a way back.
  await page.goto('/dashboard');
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/account$/);
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: '← Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Links of the one-page dashboard, in mails and notices already sent.
  for (const [old, now] of [
    ['/dashboard?topup=12.50#top-up', /\/dashboard\/wallet\?topup=12\.50#top-up$/],
    ['/dashboard#credits', /\/dashboard\/wallet#credits$/],
    ['/dashboard#exchange', /\/dashboard\/exchanges#exchange$/],
    ['/dashboard#orders', /\/dashboard\/shop#orders$/],
  ] as const) {
    await page.goto(old);
    await expect(page, old).toHaveURL(now);
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Shop and orders' })).toBeVisible();
  const created = await page.request.post('/api/exchange/exchanges', {
    data: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
    headers: auth,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { exchange } = ((await created.json()) as { data: { exchange: { _id: string } } }).data;
  await page.goto(`/dashboard?exchange=${exchange._id}#exchange`);
  await expect(page).toHaveURL(`/dashboard/exchanges/${exchange._id}`);
  await expect(page.getByTestId('exchange-status')).toHaveText('Waiting for your deposit...');
  // One exchange belongs to the Exchange page of the navigation.
  await expect(nav.getByRole('link', { name: 'Exchange', exact: true })).toHaveAttribute('aria-current', 'location');

  // A phone: one menu naming the page, no side navigation.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dashboard/wallet');
  await expect(nav).toBeHidden();
  const menu = page.getByRole('combobox', { name: 'Dashboard page' });
  await expect(menu).toHaveValue('/dashboard/wallet');
  await menu.selectOption({ label: 'Shop and orders' });
  await expect(page).toHaveURL(/\/dashboard\/shop$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Shop and orders' })).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard-shop-375.png', fullPage: true });
  expect(consoleErrors).toEqual([]);
});
