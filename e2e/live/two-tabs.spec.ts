import type { Page } from '@playwright/test';
import { expect, test, watchConsole } from '../support/fixtures.js';
import { movePayment, registerPastOnboarding, startTopUp } from '../support/seed.js';

// The live channel is what this file is about: keep the server-sent events stream.
test.use({ liveNotifications: true });

/** Every figure follows a change within 2 s of it (docs/decisions/0316-one-live-channel.md). */
const LIVE = { timeout: 2_000 };

async function dashboardReady(page: Page): Promise<void> {
  await page.goto('/dashboard/wallet');
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  await expect(page.getByRole('cell', { name: 'Waiting for payment' })).toBeVisible();
  await expect(page.getByTestId('notification-bell')).toHaveAccessibleName('Notifications');
}

test('two tabs of one user: a payment finishing moves the balance, the payment row and the bell in both within 2 s, over one stream', async ({
  context,
}) => {
  const { token, auth } = await registerPastOnboarding(context.request);
  await context.addInitScript((t) => {
    if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', t);
  }, token);
  const payment = await startTopUp(context.request, auth, 100);

  /** The tab of each stream opened. */
  const streams: Page[] = [];
  context.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/notifications/stream') streams.push(r.frame().page());
  });
  const streamOpen = context.waitForEvent('response', (r) => new URL(r.url()).pathname === '/api/notifications/stream');
  const first = await context.newPage();
  const second = await context.newPage();
  const errors = [watchConsole(first), watchConsole(second)];
  await dashboardReady(first);
  await dashboardReady(second);
  expect((await streamOpen).status()).toBe(200);

  await movePayment(context.request, payment.providerPaymentId, 'finished');

  for (const page of [first, second]) {
    await expect(page.getByTestId('credit-balance')).toHaveText('97.00', LIVE);
    await expect(page.getByRole('cell', { name: /Completed/ })).toBeVisible(LIVE);
    await expect(page.getByTestId('notification-count')).toHaveText('1', LIVE);
  }
  // The tabs share one stream: the one holding the lock tells the other.
  expect(streams).toHaveLength(1);

  // The tab with the stream closes: the other takes it over and stays live.
  const leader = streams[0]!;
  const follower = leader === first ? second : first;
  const takeover = context.waitForEvent('response', (r) => new URL(r.url()).pathname === '/api/notifications/stream');
  await leader.close();
  expect((await takeover).status()).toBe(200);
  expect(streams.at(-1)).toBe(follower);
  const next = await startTopUp(context.request, auth, 20);
  await movePayment(context.request, next.providerPaymentId, 'finished');
  await expect(follower.getByTestId('credit-balance')).toHaveText('116.00', LIVE);
  await expect(follower.getByTestId('notification-count')).toHaveText('2', LIVE);
  expect(errors.flat()).toEqual([]);
});
