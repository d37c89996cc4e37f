import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { Webhook } from 'standardwebhooks';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Webhooks from the settings page, in the browser (docs/product.md#webhooks). The e2e server runs with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1, so it may deliver to this receiver on 127.0.0.1.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let receiverBase = '';
let receiverUrl = '';
const received: Received[] = [];
/** Paths that answer with an error until the test fixes them. */
const failing = new Map<string, { status: number; body: string }>();
const at = (path: string) => received.filter((r) => r.path === path);

/** What a receiver does with the `standardwebhooks` package: throws unless a signature matches `secret`. */
function verify(secret: string, request: Received): unknown {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new Webhook(secret).verify(request.body, headers);
}

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const failure = failing.get(path);
      if (failure) res.writeHead(failure.status, { 'content-type': 'text/plain' }).end(failure.body);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiverUrl = `${receiverBase}/olympus-hook`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('save webhook settings, send a test, and see it delivered and signed', async ({ page, consoleErrors }) => {
  await signIn(page);
  await page.goto('/dashboard/settings/developers');
  const panel = page.getByRole('region', { name: 'Webhooks' });
  await expect(panel.getByLabel('Webhook URL')).toBeVisible();
  await expect(panel.getByText('No deliveries yet.', { exact: false })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Send test' })).toBeDisabled();

  // A wrong URL is refused on its field before anything is sent.
  await panel.getByLabel('Webhook URL').fill('ftp://files.example.com/hook');
  await panel.getByRole('button', { name: 'Save webhook' }).click();
  await expect(panel.getByText('The URL must start with https://')).toBeVisible();
  await expect(panel.getByLabel('Webhook URL')).toBeFocused();

  await panel.getByLabel('Webhook URL').fill(receiverUrl);
  await panel.getByRole('checkbox', { name: /Ticket answered/ }).uncheck();
  await panel.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText('Webhook settings saved')).toBeVisible();

  const secretInput = panel.getByRole('group', { name: 'Signing secret' }).getByRole('textbox');
  const secret = await secretInput.inputValue();
  expect(secret).toMatch(/^whsec_/);

  await panel.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText('Test webhook queued')).toBeVisible();
  const row = panel.getByRole('table').getByRole('row').nth(1);
  // The log refreshes itself while the delivery is queued.
  await expect(row).toContainText('200 · Delivered', { timeout: 20_000 });
  await expect(row).toContainText('webhook.test');
  await expect(row.getByRole('cell').nth(2).locator('summary')).toContainText('1');

  expect(at('/olympus-hook')).toHaveLength(1);
  const delivered = at('/olympus-hook')[0]!;
  expect(delivered.headers['x-olympus-event']).toBe('webhook.test');
  // Standard Webhooks: the reference package accepts it with the secret the panel showed.
  expect(verify(secret, delivered)).toMatchObject({ type: 'webhook.test' });

  // After a reload the secret is masked, and the saved choices are back.
  await page.reload();
  await expect(panel.getByLabel('Webhook URL')).toHaveValue(receiverUrl);
  await expect(panel.getByText(`whsec_••••••••${secret.slice(-4)}`)).toBeVisible();
  await expect(panel.getByRole('checkbox', { name: /Ticket answered/ })).not.toBeChecked();
  await expect(panel.getByRole('checkbox', { name: /Payment finished/ })).toBeChecked();
  await expect(panel.getByRole('table')).toContainText('200 · Delivered');

  const { violations } = await new AxeBuilder({ page })
    .include('.webhooks-panel')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the webhooks panel fits a phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page);
  await page.goto('/dashboard/settings/developers');
  await expect(page.getByRole('region', { name: 'Webhooks' }).getByLabel('Webhook URL')).toBeVisible();
  // The other settings sections load on their own; the page must fit once they have (a section still
  // loading may measure a pixel wide for a moment, which a user never sees settle that way).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('a failing endpoint shows each attempt in the log, and a replay by hand delivers it', async ({ page, consoleErrors }) => {
  const path = '/failing-hook';
  failing.set(path, { status: 503, body: 'Service Unavailable: down for maintenance' });
  await signIn(page);
  await page.goto('/dashboard/settings/developers');
  const panel = page.getByRole('region', { name: 'Webhooks' });
  await panel.getByLabel('Webhook URL').fill(`${receiverBase}${path}`);
  await panel.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText('Webhook settings saved')).toBeVisible();
  const secret = await panel.getByRole('group', { name: 'Signing secret' }).getByRole('textbox').inputValue();

  await panel.getByRole('button', { name: 'Send test' }).click();
  const row = panel.getByRole('table').getByRole('row').nth(1);
  // The first attempt fails, the retry 5 seconds later too; then the next retry is minutes away.
  await expect(row).toContainText('503 · Retrying', { timeout: 20_000 });
  await expect(row.getByRole('cell').nth(2).locator('summary')).toContainText('2', { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(4).locator('time')).toBeVisible();
  await row.getByRole('cell').nth(2).locator('summary').click();
  const attempts = row.getByRole('cell').nth(2).getByRole('listitem');
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText('#1 Automatic · 503');
  await expect(attempts.nth(1)).toContainText('#2 Automatic · 503');
  await expect(attempts.nth(0)).toContainText('down for maintenance');
  expect(at(path)).toHaveLength(2);

  // The receiver is fixed: Replay sends the same message again, now.
  failing.delete(path);
  await row.getByRole('button', { name: /^Replay/ }).click();
  await expect(page.getByText('Replayed: delivered (200)')).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText('200 · Delivered');
  await expect(attempts).toHaveCount(3);
  await expect(attempts.nth(2)).toContainText('#3 Replay · 200');
  const requests = at(path);
  expect(requests).toHaveLength(3);
  const replayed = requests[2]!;
  // A new attempt of the same message: same webhook-id and body, signed afresh.
  expect(replayed.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
  expect(replayed.body).toBe(requests[0]!.body);
  expect(verify(secret, replayed)).toMatchObject({ type: 'webhook.test' });

  // With attempts open, the page still fits a phone screen (the log scrolls sideways inside its own box).
  await page.setViewportSize({ width: 375, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  const { violations } = await new AxeBuilder({ page })
    .include('.webhooks-panel')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('rotating the secret signs with both secrets during the overlap', async ({ page, consoleErrors }) => {
  const path = '/rotating-hook';
  await signIn(page);
  await page.goto('/dashboard/settings/developers');
  const panel = page.getByRole('region', { name: 'Webhooks' });
  await panel.getByLabel('Webhook URL').fill(`${receiverBase}${path}`);
  await panel.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText('Webhook settings saved')).toBeVisible();
  const secretBox = panel.getByRole('group', { name: 'Signing secret' }).getByRole('textbox');
  const oldSecret = await secretBox.inputValue();

  await panel.getByRole('button', { name: 'Rotate secret' }).click();
  await panel.getByRole('button', { name: 'Yes, rotate it' }).click();
  await expect(page.getByText('Signing secret rotated')).toBeVisible();
  await expect(secretBox).not.toHaveValue(oldSecret);
  const newSecret = await secretBox.inputValue();
  expect(newSecret).toMatch(/^whsec_/);
  await expect(panel.getByText(/previous secret also signs deliveries until/)).toBeVisible();

  await panel.getByRole('button', { name: 'Send test' }).click();
  await expect(panel.getByRole('table').getByRole('row').nth(1)).toContainText('200 · Delivered', { timeout: 20_000 });
  const [request] = at(path);
  expect((request!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
  // A receiver still on the old secret and one already on the new secret both accept it.
  expect(verify(oldSecret, request!)).toMatchObject({ type: 'webhook.test' });
  expect(verify(newSecret, request!)).toMatchObject({ type: 'webhook.test' });
  expect(() => verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, request!)).toThrow();
  expect(consoleErrors).toEqual([]);
});
