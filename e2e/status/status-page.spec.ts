import AxeBuilder from '@axe-core/playwright';
import { STATUS_PAGE_REFRESH_MS } from '#shared/schemas/status.js';
import { expect, test } from '../support/fixtures.js';
import { ISOLATED_ADMIN, startFakePaymentProvider, startIsolatedServer, type IsolatedServer } from '../support/isolated-server.js';

/**
 * The status page against a server whose payment provider base URL points at an address where nothing
 * answers: the check at start marks it down, and once the provider answers again one check brings it
 * back, which the open page shows on its next automatic refresh.
 */
test.describe('live status page', () => {
  test.describe.configure({ timeout: 120_000 });
  let server: IsolatedServer;
  let provider: Awaited<ReturnType<typeof startFakePaymentProvider>>;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    provider = await startFakePaymentProvider('silent');
    server = await startIsolatedServer({ NOWPAYMENTS_API_BASE: provider.apiBase });
  });
  test.afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  test('shows the payment provider down when nothing answers, and operational once it answers again', async ({
    page,
    request,
    consoleErrors,
  }) => {
    // The check that runs as the server starts: bounded by its 3 s timeout.
    await expect
      .poll(
        async () => {
          const res = await request.get(`${server.url}/api/status`);
          const body = (await res.json()) as { components: { id: string; state: string }[] };
          return body.components.find((c) => c.id === 'payment-provider')?.state;
        },
        { timeout: 20_000 },
      )
      .toBe('down');

    await page.clock.install();
    await page.goto(`${server.url}/status`);
    await expect(page.getByRole('heading', { level: 1, name: 'Olympus Status' })).toBeVisible();
    const payment = page.locator('[data-component="payment-provider"]');
    await expect(payment.getByText('Down', { exact: true })).toBeVisible();
    await expect(payment).toContainText('No answer within 3000 ms');
    await expect(page.locator('[data-component="database"]').getByText('Operational', { exact: true })).toBeVisible();
    await expect(page.getByText('Some systems are down')).toBeVisible();
    await expect(payment.getByRole('img', { name: /Payment provider, last 90 days/ })).toBeVisible();

    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    // The provider answers again; one check (the staff "check now", the same function the minute job runs).
    provider.setMode('ok');
    const login = await request.post(`${server.url}/api/login`, {
      data: { username: ISOLATED_ADMIN.username, password: ISOLATED_ADMIN.password, turnstileToken: 'ok', rememberMe: false },
    });
    const { token } = (await login.json()) as { token: string };
    const check = await request.post(`${server.url}/api/status/checks`, { headers: { authorization: `Bearer ${token}` } });
    expect(check.status()).toBe(200);

    // No reload: the open page refreshes itself.
    await page.clock.fastForward(STATUS_PAGE_REFRESH_MS);
    await expect(payment.getByText('Operational', { exact: true })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('shows incidents that staff post', async ({ page, request }) => {
    const login = await request.post(`${server.url}/api/login`, {
      data: { username: ISOLATED_ADMIN.username, password: ISOLATED_ADMIN.password, turnstileToken: 'ok', rememberMe: false },
    });
    const { token } = (await login.json()) as { token: string };
    const posted = await request.post(`${server.url}/api/status/incidents`, {
      headers: { authorization: `Bearer ${token}` },
      data: { title: 'Top-ups delayed', impact: 'major', components: ['payment-provider'], message: 'Payments are confirming slowly.' },
    });
    expect(posted.status()).toBe(201);

    await page.goto(`${server.url}/status`);
    const active = page.getByRole('region', { name: 'Active incidents' });
    await expect(active.getByRole('heading', { name: 'Top-ups delayed' })).toBeVisible();
    await expect(active).toContainText('Payments are confirming slowly.');
    await expect(active).toContainText('Affects Payment provider');
  });
});
