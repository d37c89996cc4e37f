import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * Radios and checkboxes sit on one line with their label, right beside it, at phone and desktop
 * widths (docs/decisions/0233). Measured in the browser: a stray rule that gives every input the
 * width of a text field (the old fault) pushes the control away from its label and fails this.
 */
const WIDTHS = [375, 1280];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

/** The control is a small box (at least 24 x 24), its text starts just right of it, on the same line. */
async function expectBesideItsLabel(control: Locator, text: Locator): Promise<void> {
  // Both boxes from one layout, and again until the page has settled after a resize: read one by one,
  // a poll that redrew the ticket between the two reads once moved the label 17 px under its control.
  await expect(async () => besideItsLabel(control, text)).toPass({ timeout: 10_000 });
}

async function besideItsLabel(control: Locator, text: Locator): Promise<void> {
  const handle = await text.elementHandle();
  const [c, t] = await control.evaluate((el, label) => {
    const rect = (node: Element) => {
      const r = node.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return [rect(el), rect(label as Element)];
  }, handle);
  expect(c.width).toBeGreaterThanOrEqual(24);
  expect(c.height).toBeGreaterThanOrEqual(24);
  expect(c.width).toBeLessThanOrEqual(48);
  const gap = t.x - (c.x + c.width);
  expect(gap, 'label starts right after the control').toBeGreaterThanOrEqual(0);
  expect(gap, 'label starts right after the control').toBeLessThanOrEqual(16);
  // Same line: the control's middle lies within the first line of its text.
  const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
  const controlMiddle = c.y + c.height / 2;
  expect(controlMiddle).toBeGreaterThanOrEqual(t.y);
  expect(controlMiddle).toBeLessThanOrEqual(t.y + lineHeight);
}

async function expectFitsWidth(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of WIDTHS) {
  test(`the exchange Rate choice is a radio group, each radio beside its label, at ${width} px`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    // The widget loads when it comes into view.
    // (The placeholder may already have been replaced by the widget: then there is nothing to scroll to.)
    await page
      .locator('#exchange')
      .scrollIntoViewIfNeeded({ timeout: 5_000 })
      .catch(() => undefined);
    const group = page.getByRole('group', { name: 'Rate' });
    await expect(group).toBeVisible({ timeout: 20_000 });
    await group.scrollIntoViewIfNeeded();
    for (const name of ['Floating rate', 'Fixed rate']) {
      const radio = group.getByRole('radio', { name: new RegExp(name) });
      // (`has` is matched inside each label, so it takes a locator of its own.)
      const label = group.locator('label').filter({ has: page.getByRole('radio', { name: new RegExp(name) }) });
      const title = label.locator('.segmented-title');
      await expect(title).toHaveText(name);
      await expectBesideItsLabel(radio, title);
      // The title reads on one line.
      expect((await box(title)).height).toBeLessThanOrEqual(32);
    }
    // Arrow keys move the choice, as in any radio group.
    const floating = group.getByRole('radio', { name: /Floating rate/ });
    await floating.focus();
    await page.keyboard.press('ArrowRight');
    await expect(group.getByRole('radio', { name: /Fixed rate/ })).toBeChecked();
    await expect(group.getByRole('radio', { name: /Fixed rate/ })).toBeFocused();
    await expectFitsWidth(page);
    expect(consoleErrors).toEqual([]);
  });
}

test('the internal-note checkbox sits beside its label and marks the reply box, at 375 and 1280 px', async ({ page, browser }) => {
  const tag = Date.now().toString(36);
  const account = await signIn(page);
  const res = await page.request.post('/api/tickets', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { subject: `Layout check ${tag}`, message: 'Where is my deposit?', category: 'payments' },
  });
  expect(res.status()).toBe(201);

  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff/tickets');
  await support.getByRole('searchbox').fill(`Layout check ${tag}`);
  await support.getByRole('link', { name: new RegExp(`Layout check ${tag}`) }).click();
  const checkbox = support.getByRole('checkbox', { name: 'Internal note (the requester never sees it)' });
  const label = support.locator(`label[for="${await checkbox.getAttribute('id')}"]`);
  for (const width of WIDTHS) {
    await support.setViewportSize({ width, height: 900 });
    await expect(checkbox).toBeVisible();
    await expectBesideItsLabel(checkbox, label);
    await expectFitsWidth(support);
  }
  await expect(support.getByText('Internal note — customers won’t see this')).toHaveCount(0);
  await checkbox.check();
  await expect(support.getByText('Internal note — customers won’t see this')).toBeVisible();
  await expect(support.getByRole('button', { name: 'Add note' })).toBeVisible();
  await support.context().close();
});
