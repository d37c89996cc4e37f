import { expect, signIn, test } from '../support/fixtures.js';

/**
 * The signed-in header keeps its links on one line from the width where the menu gives way to them
 * (1,271 px, since the language menu joined them: decision 0326) upward: no link wraps ("Patch Notes" did at 1280 px), and nothing pushes the page sideways.
 */
for (const width of [1271, 1280, 1440]) {
  test(`the signed-in header is one line at ${width} px`, async ({ page }) => {
    await signIn(page);
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: /Account/ })).toBeVisible();
    const patchNotes = page.getByRole('banner').getByRole('link', { name: 'Patch Notes' });
    await expect(patchNotes).toBeVisible();
    const box = (await patchNotes.boundingBox())!;
    const home = (await page.getByRole('banner').getByRole('link', { name: 'Home' }).boundingBox())!;
    expect(box.height).toBe(home.height);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBe(0);
  });
}

test('below 1,271 px the links are in the menu', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 1270, height: 800 });
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Patch Notes' })).toBeHidden();
});
