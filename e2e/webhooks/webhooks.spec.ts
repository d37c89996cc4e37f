import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Webhooks from the settings page, in the browser (design.md section 10). The e2e server runs with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1, so it may deliver to this receiver on 127.0.0.1.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let receiverUrl = '';
const received: Received[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/olympus-hook`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('save webhook settings, send a test, and see it delivered and signed', async ({ page, consoleErrors }) => {
  await signIn(page);
  await page.goto('/dashboard/settings');
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
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');

  expect(received).toHaveLength(1);
  const { headers, body } = received[0]!;
  expect(headers['x-olympus-event']).toBe('webhook.test');
  const timestamp = headers['x-olympus-timestamp'] as string;
  expect(headers['x-olympus-signature']).toBe(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);

  // After a reload the secret is masked, and the saved choices are back.
  await page.reload();
  await expect(panel.getByLabel('Webhook URL')).toHaveValue(receiverUrl);
  await expect(panel.getByText(`whsec_••••••••${secret.slice(-4)}`)).toBeVisible();
  await expect(panel.getByRole('checkbox', { name: /Ticket answered/ })).not.toBeChecked();
  await expect(panel.getByRole('checkbox', { name: /Payment finished/ })).toBeChecked();
  await expect(panel.getByRole('table')).toContainText('200 · Delivered');

  const { violations } = await new AxeBuilder({ page }).include('.webhooks-panel').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the webhooks panel fits a phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page);
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('region', { name: 'Webhooks' }).getByLabel('Webhook URL')).toBeVisible();
  // The other settings sections load on their own; the page must fit once they have (a section still
  // loading may measure a pixel wide for a moment, which a user never sees settle that way).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
