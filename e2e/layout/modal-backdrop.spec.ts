import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Under an open dialog the sticky header is dimmed with the rest of the page and cannot be clicked: the
 * dialog is modal (`showModal`), so its backdrop covers the header too and everything outside it is inert.
 */
for (const width of [375, 1280]) {
  test(`the header is dimmed and out of reach under a dialog at ${width} px`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page);
    await page.goto('/dashboard/support');
    const header = page.locator('.site-header');
    await expect(header).toBeVisible();
    const box = (await header.boundingBox())!;
    const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    const topmost = () =>
      page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('dialog, .site-header')?.tagName ?? null, point);
    expect(await topmost()).toBe('HEADER');

    await page.getByRole('button', { name: 'New ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'New support ticket' });
    await expect(dialog).toBeVisible();
    // What is on top at the header's middle is the dialog's backdrop, not the header.
    expect(await topmost()).toBe('DIALOG');
    // The backdrop darkens the page behind it, the header included.
    const backdrop = await dialog.evaluate((el) => getComputedStyle(el, '::backdrop').backgroundColor);
    expect(backdrop).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
    // The header's links are out of reach: a click there does not leave the page.
    await page.mouse.click(point.x, point.y);
    await expect(page).toHaveURL(/\/dashboard\/support$/);
    await page.screenshot({ path: `test-results/modal-backdrop-${width}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await topmost()).toBe('HEADER');
    expect(consoleErrors).toEqual([]);
  });
}
