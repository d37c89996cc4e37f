import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Settings → Privacy in Chromium (docs/product.md#privacy): /dashboard/settings#privacy lands on the
 * section; "Download my data" requests a copy, shows its progress, then downloads the ZIP; one a day is
 * said before anyone presses the button; the retention table reads as cards on a phone.
 */

const SCREENS = process.env.PRIVACY_SCREENS_DIR;

async function screenshot(page: Page, name: string) {
  if (!SCREENS) return;
  await page.getByRole('region', { name: 'Privacy' }).screenshot({ path: `${SCREENS}/${name}.png` });
}

test('download my data: request, progress, ready, download, and one a day', async ({ page, consoleErrors }) => {
  const account = await signIn(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard/settings#privacy');
  const section = page.getByRole('region', { name: 'Privacy' });
  await expect(section.getByRole('heading', { level: 2, name: 'Privacy' })).toBeInViewport();
  await expect(section.getByText('one copy every 24 hours', { exact: false })).toBeVisible();
  await screenshot(page, 'privacy-1280-empty');

  await section.getByRole('button', { name: 'Request a copy of my data' }).click();
  // The job is quick here; the pending state may show briefly. Either way it ends ready.
  await expect(section.getByText('Your copy is ready', { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(section.getByText(/Available until/)).toBeVisible();
  await expect(section.getByText(/One copy a day: you can request the next one after/)).toBeVisible();
  await expect(section.getByRole('button', { name: /Request a/ })).toHaveCount(0);
  await screenshot(page, 'privacy-1280-ready');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Download my data (ZIP)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^olympus-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const account_ = JSON.parse(strFromU8(zip['account.json']!)) as { profile: { username: string; email: string } };
  expect(account_.profile).toMatchObject({ username: account.username, email: `${account.username}@example.com` });
  expect(Object.keys(zip)).toEqual(expect.arrayContaining(['ledger.csv', 'ledger.json', 'tickets.json', 'security-log.json']));

  // A second request the same day is refused by the API too, with its code.
  const again = await page.request.post('/api/users/me/export', { headers: { authorization: `Bearer ${account.token}` }, data: {} });
  expect(again.status()).toBe(429);
  expect(((await again.json()) as { code: string }).code).toBe('EXPORT_ALREADY_REQUESTED');

  const { violations } = await new AxeBuilder({ page })
    .include('.privacy-section')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the retention table, on a phone and in both themes', async ({ page, consoleErrors }) => {
  await signIn(page);
  for (const theme of ['dark', 'light'] as const) {
    await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/dashboard/settings#privacy');
    const section = page.getByRole('region', { name: 'Privacy' });
    const table = section.getByRole('table', { name: 'How long we keep things' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(11);
    await expect(table.getByRole('row', { name: /Ledger entries, payments, exchanges, orders and charges/ })).toContainText('For good');
    await expect(table.getByRole('row', { name: /Copies of your data/ })).toContainText('7 days after they are ready');
    // Nothing pushes the page sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, `privacy-375-${theme}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, `privacy-1280-${theme}`);
    const { violations } = await new AxeBuilder({ page })
      .include('.privacy-section')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
  }
  expect(consoleErrors).toEqual([]);
});
