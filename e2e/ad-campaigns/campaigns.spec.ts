import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * Self-serve ad campaigns in Chromium (docs/product.md#ad-campaigns): a user funds a campaign from their
 * balance in Dashboard → Advertise, staff approve it in the console, a visitor sees it on the home page
 * and its viewable impression is charged, and stopping it refunds the rest.
 */
const SLOW = { timeout: 30_000 };
const SHOTS = 'test-results/ad-campaigns';

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const balanceOf = async (page: Page, token: string, userId: string) =>
  ((await (await page.request.get(`/api/users/${userId}/credits`, { headers: bearer(token) })).json()) as { credits: number }).credits;

test('a user funds a campaign, staff approve it, a visitor sees it and is charged for, and stopping refunds the rest', async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  const admin = await staffPage(browser, 'admin');
  const adminToken = (await admin.evaluate(() => window.localStorage.getItem('token')))!;
  // House ads would share the home banner: pause them so the campaign is what the visitor gets.
  const house = (await (await admin.request.get('/api/staff/ads', { headers: bearer(adminToken) })).json()) as {
    ads: { _id: string; active: boolean }[];
  };
  for (const ad of house.ads.filter((a) => a.active))
    await admin.request.put(`/api/staff/ads/${ad._id}`, { headers: bearer(adminToken), data: { active: false } });

  // A user with 19.00 credits (a 20 USD top-up in the payment sandbox).
  const { token } = await signIn(page);
  await page.request.put('/api/onboarding', { data: { completed: true }, headers: bearer(token) });
  const me = (await (await page.request.get('/api/auth/me', { headers: bearer(token) })).json()) as { user: { _id: string } };
  const userId = me.user._id;
  const deposit = await page.request.post('/api/payments/deposit', { headers: bearer(token), data: { crypto: 'btc', amount: 20 } });
  const providerPaymentId = ((await deposit.json()) as { payment: { providerPaymentId: string } }).payment.providerPaymentId;
  await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status: 'finished' } });
  await expect.poll(() => balanceOf(page, token, userId), SLOW).toBe(19);

  // Dashboard → Advertise: the form and the empty list.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Advertise', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Advertise' })).toBeVisible(SLOW);
  await expect(page.getByText('No campaigns yet.')).toBeVisible(SLOW);
  await axe(page);
  await shots(page, 'advertise-empty');

  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Campaign name').fill('Browser campaign');
  // 100.00 per 1,000 viewable impressions: 10 cents each.
  await form.getByLabel(/^Price/).fill('100.00');
  await form.getByLabel('Total budget (credits)').fill('5.00');
  await form.getByLabel('Title').fill('Cold storage for your coins');
  await form.getByLabel('Text').fill('Hardware wallets shipped worldwide.');
  await form.getByLabel('Link (http or https)').fill('https://wallets.example/offer');
  await form.getByRole('button', { name: 'Create and reserve 5.00 credits' }).click();
  const card = page.getByRole('article', { name: 'Browser campaign' });
  await expect(card.getByTestId('campaign-state')).toHaveText('In review', SLOW);
  expect(await balanceOf(page, token, userId)).toBe(14);
  await axe(page);
  await shots(page, 'advertise-in-review');

  // Staff console → Ad review: approve it.
  await admin.goto('/dashboard/staff/ad-review');
  const item = admin.getByRole('article', { name: 'Cold storage for your coins' });
  await expect(item).toBeVisible(SLOW);
  await axe(admin);
  await shots(admin, 'staff-ad-review');
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(item).toHaveCount(0, SLOW);

  // A visitor on the home page: the campaign's creative in view for a second is counted and charged.
  const visitor = await browser.newPage();
  await visitor.setViewportSize({ width: 1024, height: 600 });
  await visitor.goto('/');
  const slot = visitor.locator('[data-placement="home-banner"]');
  await expect(slot).toContainText('Cold storage for your coins', SLOW);
  const answered = visitor.waitForResponse((res) => /\/api\/ads\/[^/]+\/impression$/.test(res.url()), SLOW);
  await slot.scrollIntoViewIfNeeded();
  expect(await (await answered).json()).toEqual({ recorded: true });
  await visitor.close();

  // The advertiser sees the spend and the report, then stops the campaign: the rest comes back.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(card.getByTestId('campaign-state')).toHaveText('Running', SLOW);
  await expect(card.getByTestId('campaign-spent')).toHaveText('0.100', SLOW);
  // The report has an address of its own: it opens there and again after a reload.
  await card.getByRole('link', { name: 'Report of Browser campaign' }).click();
  await expect(page).toHaveURL(/\/dashboard\/advertise\/campaigns\/[\w-]+$/);
  const report = page.getByRole('region', { name: 'Report: Browser campaign' });
  await expect(report.getByRole('group', { name: 'Spend per day: Spend in credits by UTC day' })).toBeVisible(SLOW);
  await page.reload();
  await expect(report.getByRole('group', { name: 'Spend per day: Spend in credits by UTC day' })).toBeVisible(SLOW);
  // Each bar names its day and spend, on hover, on keyboard focus and to screen readers.
  const bar = report.getByRole('img', { name: /: 0\.100 credits$/ });
  await expect(bar).toHaveCount(1);
  await bar.hover();
  await expect(report.getByTestId('bar-chart-value')).toHaveText(/^\d{1,2} \w+ \d{4}: 0\.100 credits$/);
  await expect(report.getByText('Spend in credits (up) by UTC day (across).')).toBeVisible();
  await expect(report.getByText('No invalid traffic: every impression shown met the rules.')).toBeVisible();
  await expect(report.getByRole('table')).toContainText('Cold storage for your coins');
  await axe(page);
  await shots(page, 'advertise-report');

  page.once('dialog', (dialog) => void dialog.accept());
  await card.getByRole('button', { name: 'Stop and refund' }).click();
  await expect(card.getByTestId('campaign-state')).toHaveText('Ended', SLOW);
  await expect(card).toContainText('4.90 credits came back');
  expect(await balanceOf(page, token, userId)).toBe(18.9);

  // Staff see every campaign.
  await admin.goto('/dashboard/staff/ad-campaigns');
  await expect(admin.getByRole('article', { name: 'Browser campaign' })).toBeVisible(SLOW);
  await axe(admin);
  await shots(admin, 'staff-ad-campaigns');

  // An admin runs a house campaign (decision 0283): approved at once, marked in the list, nothing paid.
  await admin.getByRole('button', { name: 'New house campaign' }).click();
  const houseForm = admin.getByRole('form', { name: 'New house campaign' });
  await houseForm.getByLabel('Campaign name').fill('Olympus Pro');
  await houseForm.getByLabel('Title').fill('Try Olympus Pro');
  await houseForm.getByLabel('Link (http or https)').fill('https://olympus.example/pro');
  await axe(admin);
  await shots(admin, 'staff-house-form');
  await houseForm.getByRole('button', { name: 'Create house campaign' }).click();
  const houseCard = admin.getByRole('article', { name: 'Olympus Pro' });
  await expect(houseCard.getByTestId('campaign-house')).toHaveText('House', SLOW);
  await expect(houseCard.getByTestId('campaign-state')).toHaveText('Running', SLOW);
  await expect(houseCard).toContainText('no budget limit, nothing paid');
  await axe(admin);
  await shots(admin, 'staff-ad-campaigns-house');
  // With no paid campaign left, a visitor gets the house campaign's creative.
  const houseVisitor = await browser.newPage();
  await houseVisitor.goto('/');
  await expect(houseVisitor.locator('[data-placement="home-banner"]')).toContainText('Try Olympus Pro', SLOW);
  await houseVisitor.close();
  admin.once('dialog', (dialog) => void dialog.accept());
  await houseCard.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(houseCard.getByTestId('campaign-state')).toHaveText('Ended', SLOW);
  await admin.close();
  expect(consoleErrors).toEqual([]);
});

test('the Advertise with us page shows the prices', async ({ page }) => {
  await page.goto('/advertise');
  await expect(page.getByRole('heading', { level: 1, name: 'Advertise with us' })).toBeVisible(SLOW);
  await expect(page.getByText('2.00 credits')).toBeVisible();
  await expect(page.getByText('0.10 credits')).toBeVisible();
  await axe(page);
  await shots(page, 'advertise-marketing');
});
