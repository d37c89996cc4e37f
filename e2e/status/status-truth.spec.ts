import { expect, test } from '../support/fixtures.js';
import { ISOLATED_ADMIN, startIsolatedServer, type IsolatedServer } from '../support/isolated-server.js';

/**
 * During an open major incident on the swap provider the page and the API say so, whatever the checks
 * find; once it is resolved they say operational again (decision 0230). The uptime says how many days
 * it was measured over, and the days before this server's first check show "No data".
 */
test.describe('the status page tells the truth', () => {
  test.describe.configure({ timeout: 120_000 });
  let server: IsolatedServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startIsolatedServer({});
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a major incident on the swap provider shows as an outage until it is resolved', async ({ page, request, consoleErrors }) => {
    const login = await request.post(`${server.url}/api/login`, {
      data: { username: ISOLATED_ADMIN.username, password: ISOLATED_ADMIN.password, turnstileToken: 'ok', rememberMe: false },
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const posted = await request.post(`${server.url}/api/status/incidents`, {
      headers,
      data: { title: 'Swaps are failing', impact: 'major', components: ['swap-provider'], message: 'New exchanges cannot be created.' },
    });
    expect(posted.status()).toBe(201);
    const incidentId = ((await posted.json()) as { incident: { _id: string } }).incident._id;

    const api = (await (await request.get(`${server.url}/api/status`)).json()) as {
      overall: string;
      components: { id: string; state: string }[];
    };
    expect(api.overall).toBe('down');
    expect(api.components.find((c) => c.id === 'swap-provider')?.state).toBe('down');

    await page.goto(`${server.url}/status`);
    await expect(page.locator('.status-overall')).toHaveText('Some systems are down');
    await expect(page.getByText('All systems operational')).toHaveCount(0);
    const swap = page.locator('[data-component="swap-provider"]');
    await expect(swap.locator('.state-badge')).toHaveText('Down');
    await expect(swap.getByText('Major incident:')).toBeVisible();
    await expect(swap.getByRole('link', { name: 'Swaps are failing' })).toBeVisible();

    // Uptime: measured since this server's first check (today), the 89 days before it have no data.
    await expect(swap.getByTestId('uptime-summary')).toContainText(/uptime over 1 day measured/);
    await expect(swap.getByTestId('uptime-summary')).toContainText('No data');
    await expect(swap.locator('.uptime-day[data-level="none"]')).toHaveCount(89);
    await expect(
      swap.getByRole('img', { name: /Swap provider, last 90 days: .* uptime over 1 day measured, 89 days with no data/ }),
    ).toBeVisible();

    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: 'test-results/status-incident-375.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: 'test-results/status-incident-1280.png', fullPage: true });

    // Resolved: the next refresh says operational again (no cached answer in between).
    const resolved = await request.put(`${server.url}/api/status/incidents/${incidentId}`, {
      headers,
      data: { status: 'resolved', message: 'Swaps work again.' },
    });
    expect(resolved.status()).toBe(200);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(swap.locator('.state-badge')).not.toHaveText('Down');
    await expect(swap.getByText('Major incident:')).toHaveCount(0);
    await expect(page.locator('.status-overall')).not.toHaveText('Some systems are down');
    expect(consoleErrors).toEqual([]);
  });

  test('while an incident affects a provider, the form that uses it says so before anyone acts, linked to /status', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const login = await request.post(`${server.url}/api/login`, {
      data: { username: ISOLATED_ADMIN.username, password: ISOLATED_ADMIN.password, turnstileToken: 'ok', rememberMe: false },
    });
    const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const username = `notice_${Date.now().toString(36)}`;
    const registered = await request.post(`${server.url}/api/register`, {
      data: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
    });
    const { token } = (await registered.json()) as { token: string };
    await request.put(`${server.url}/api/onboarding`, { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
    await page.addInitScript((t) => window.localStorage.setItem('token', t), token);

    const incidents: string[] = [];
    for (const [title, component] of [
      ['Top-ups are delayed', 'payment-provider'],
      ['Swaps are failing', 'swap-provider'],
    ] as const) {
      const posted = await request.post(`${server.url}/api/status/incidents`, {
        headers,
        data: { title, impact: component === 'swap-provider' ? 'major' : 'minor', components: [component], message: 'Looking into it.' },
      });
      expect(posted.status()).toBe(201);
      incidents.push(((await posted.json()) as { incident: { _id: string } }).incident._id);
    }

    // The exchange page's form.
    await page.goto(`${server.url}/dashboard/exchanges`);
    const swap = page.getByTestId('component-notice-swap-provider');
    await expect(swap).toContainText('Swaps are failing');
    await expect(swap).toContainText('Swaps may fail right now.');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await swap.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/component-notice-exchange-${width}.png` });
    }
    // The wallet's top-up form.
    await page.goto(`${server.url}/dashboard/wallet`);
    const topUp = page.getByTestId('component-notice-payment-provider');
    await expect(topUp).toContainText('Top-ups are delayed');
    await expect(topUp).toContainText('Top-ups may be slow right now.');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await topUp.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/component-notice-top-up-${width}.png` });
    }
    await topUp.getByRole('link', { name: 'See the status page' }).click();
    await expect(page).toHaveURL(`${server.url}/status`);
    await expect(page.getByRole('link', { name: 'Top-ups are delayed' })).toBeVisible();

    for (const id of incidents) {
      const resolved = await request.put(`${server.url}/api/status/incidents/${id}`, {
        headers,
        data: { status: 'resolved', message: 'Fixed.' },
      });
      expect(resolved.status()).toBe(200);
    }
    await page.goto(`${server.url}/dashboard/wallet`);
    await expect(page.getByRole('heading', { name: 'Top up credits' })).toBeVisible();
    await expect(page.getByTestId('component-notice-payment-provider')).toHaveCount(0);
    await page.goto(`${server.url}/dashboard/exchanges`);
    await expect(page.getByLabel(/Amount to send/)).toBeVisible();
    await expect(page.getByTestId('component-notice-swap-provider')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
