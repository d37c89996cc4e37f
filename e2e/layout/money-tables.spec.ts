import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * The signed-in dashboard with money on it, on a phone (375 px) and a laptop (1280 px): the page is
 * never wider than the screen, and every column of the money tables can be read: either the table shows
 * every header whole, or each row is a card of label/value lines (docs/decisions/0237).
 */

type Auth = { authorization: string };

/** 100 USD and 50 USD in BTC complete (two top-ups in the credit history), a third payment is still open. */
async function userWithMoney(page: Page): Promise<Auth> {
  const { token } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  for (const [amount, finish] of [
    [100, true],
    [50, true],
    [25, false],
  ] as const) {
    const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount }, headers: auth });
    expect(created.status(), await created.text()).toBe(201);
    if (!finish) continue;
    const { providerPaymentId } = (await created.json()).payment as { providerPaymentId: string };
    const moved = await page.request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status: 'finished' } });
    expect((await moved.json()).ipn).toMatchObject({ delivered: true });
  }
  return auth;
}

async function expectNoHorizontalScroll(page: Page, width: number): Promise<void> {
  const { scrollWidth, innerWidth, sticking } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // What sticks out, to say so when it fails.
    sticking: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`)
      .join(', '),
  }));
  expect(innerWidth).toBe(width);
  expect(scrollWidth, `the page is no wider than the screen (sticking out: ${sticking})`).toBeLessThanOrEqual(width);
}

/**
 * Every column of the table can be read. As a table: every header is shown whole (nothing cut or
 * hidden behind a sideways scroll). As cards: every cell shows its column's label before its value.
 */
async function expectEveryColumnReadable(table: Locator, headers: string[], layout: 'table' | 'cards'): Promise<void> {
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const seen = await table.evaluate((el) => {
    const wrap = el.parentElement!.getBoundingClientRect();
    const inside = (r: DOMRect) => r.left >= wrap.left - 1 && r.right <= wrap.right + 1 && r.width > 0;
    const cut = (node: Element) => node.scrollWidth > node.clientWidth + 1;
    const ths = [...el.querySelectorAll('thead th')];
    const tds = [...el.querySelectorAll('tbody tr:first-child td')];
    return {
      headersShown: ths.map((th) => th.getBoundingClientRect().height > 1 && inside(th.getBoundingClientRect()) && !cut(th)),
      headerTexts: ths.map((th) => th.textContent?.trim() ?? ''),
      tableFits: el.scrollWidth <= el.parentElement!.clientWidth + 1,
      cells: tds.map((td) => ({
        inside: inside(td.getBoundingClientRect()),
        cut: cut(td),
        label: getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''),
      })),
    };
  });
  expect(seen.tableFits, 'the table fits its box').toBe(true);
  for (const cell of seen.cells) {
    expect(cell.inside, 'every cell is on screen').toBe(true);
    expect(cell.cut, 'no cell is cut').toBe(false);
  }
  if (layout === 'table') {
    for (const [i, name] of headers.entries()) {
      expect(seen.headerTexts[i]).toBe(name);
      expect(seen.headersShown[i], `column header "${name}" shown whole`).toBe(true);
    }
  } else {
    expect(seen.cells.map((c) => c.label)).toEqual(headers);
  }
}

for (const { width, layout } of [
  { width: 375, layout: 'cards' },
  { width: 1280, layout: 'table' },
] as const) {
  test(`at ${width} px the dashboard fits the screen and its money tables show every column`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    await userWithMoney(page);
    await page.goto('/dashboard/wallet');
    await expect(page.getByTestId('credit-balance')).toHaveText('144.50');

    const payments = page.getByRole('region', { name: 'Payment history' });
    const credits = page.getByRole('region', { name: 'Credit history' });
    await expect(payments.getByRole('row')).toHaveCount(4);
    await expect(credits.getByRole('row')).toHaveCount(3);
    await expectNoHorizontalScroll(page, width);

    await expectEveryColumnReadable(payments.getByRole('table'), ['Date', 'Amount', 'Currency', 'Credits', 'Status'], layout);
    await expectEveryColumnReadable(credits.getByRole('table'), ['Date', 'What', 'Change', 'Balance', 'Receipt'], layout);

    // The status is a badge with words; amounts line up right in tabular figures.
    await expect(payments.locator('.status-badge', { hasText: 'Completed' })).toHaveCount(2);
    const amount = payments.getByRole('cell', { name: '100.00 USD' });
    await expect(amount).toHaveCSS('font-variant-numeric', 'tabular-nums');
    if (layout === 'table') await expect(amount).toHaveCSS('text-align', 'end');

    // Each ledger entry's receipt link is on screen, and opens the receipt.
    const receipts = credits.getByRole('link', { name: /^Receipt/ });
    await expect(receipts).toHaveCount(2);
    for (const link of await receipts.all()) {
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeInViewport({ ratio: 1 });
      const box = (await link.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(24);
    }

    // Activity runs the full width of the content: the history is as wide as balance and top-up together.
    const [history, topRow] = await Promise.all([credits.boundingBox(), page.locator('.dashboard-page .grid-2').first().boundingBox()]);
    expect(Math.abs(history!.width - topRow!.width)).toBeLessThanOrEqual(1);

    await receipts.first().click();
    await expect(page).toHaveURL(/\/dashboard\/receipts\//);
    await expectNoHorizontalScroll(page, width);
    expect(consoleErrors).toEqual([]);
  });
}

for (const { width, layout } of [
  { width: 375, layout: 'cards' },
  { width: 1280, layout: 'table' },
] as const) {
  test(`at ${width} px the webhook delivery log in settings shows every column`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    const { token } = await signIn(page);
    const auth = { authorization: `Bearer ${token}` };
    // Nothing listens on port 9: the delivery fails and waits for a retry, with an error to show.
    const saved = await page.request.put('/api/users/webhook-settings', {
      data: { url: 'http://127.0.0.1:9/olympus-hook', events: ['payment.finished'], enabled: true },
      headers: auth,
    });
    expect(saved.status(), await saved.text()).toBe(200);
    expect((await page.request.post('/api/users/webhook-settings/test', { headers: auth })).status()).toBeLessThan(300);

    await page.goto('/dashboard/settings/developers');
    const log = page.getByRole('region', { name: 'Webhooks' }).getByRole('table');
    await expect(log.getByRole('row').nth(1)).toContainText('Connection refused', { timeout: 20_000 });
    await expectNoHorizontalScroll(page, width);
    await expectEveryColumnReadable(log, ['Event', 'Status', 'Attempts', 'Time', 'Next retry', 'Error', 'Actions'], layout);
    expect(consoleErrors).toEqual([]);
  });
}

/** Every row of every layout grid on the page is filled across its whole width: no empty column. */
async function expectNoEmptyColumn(page: Page, where: string): Promise<void> {
  const gaps = await page.locator('main .grid').evaluateAll((grids) =>
    grids.flatMap((grid) => {
      const box = grid.getBoundingClientRect();
      const rows = new Map<number, { left: number; right: number }>();
      for (const child of grid.children) {
        const r = child.getBoundingClientRect();
        if (r.width === 0) continue;
        const top = Math.round(r.top);
        const row = rows.get(top) ?? { left: r.left, right: r.right };
        rows.set(top, { left: Math.min(row.left, r.left), right: Math.max(row.right, r.right) });
      }
      return [...rows.values()].map((row) => Math.round(box.right - row.right + (row.left - box.left)));
    }),
  );
  expect(gaps.length, `${where}: grids found`).toBeGreaterThan(0);
  for (const gap of gaps) expect(gap, `${where}: width left empty in a grid row`).toBeLessThanOrEqual(1);
}

for (const width of [320, 768, 1920]) {
  test(`at ${width} px the dashboard and settings fit the screen and leave no empty column`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    await userWithMoney(page);
    await page.goto('/dashboard/wallet');
    await expect(page.getByRole('region', { name: 'Credit history' }).getByRole('link', { name: /^Receipt/ })).toHaveCount(2);
    await expectNoHorizontalScroll(page, width);
    await expectNoEmptyColumn(page, 'wallet');
    await page.goto('/dashboard');
    await expect(page.getByTestId('credit-balance')).toHaveText('144.50');
    await expectNoHorizontalScroll(page, width);
    await page.goto('/dashboard/settings/developers');
    await expect(page.getByRole('region', { name: 'Webhooks' })).toBeVisible();
    await expectNoHorizontalScroll(page, width);
    // The section laid out in a grid of two columns.
    await page.goto('/dashboard/settings/security');
    await expect(page.getByRole('region', { name: 'Change password' })).toBeVisible();
    await expectNoHorizontalScroll(page, width);
    await expectNoEmptyColumn(page, 'settings');
    expect(consoleErrors).toEqual([]);
  });
}
