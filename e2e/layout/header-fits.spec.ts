import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * The signed-in header keeps its links on one line while they fit, and folds them into its menu when
 * they do not: it measures its bar rather than folding at a fixed width, since translated navigation is
 * longer than English (decision 0326). In English the links fit from 1,271 px upward: no link wraps
 * ("Patch Notes" did at 1280 px), and nothing pushes the page sideways.
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

test('when the links do not fit, they are in the menu', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Patch Notes' })).toBeHidden();
});

/** The boxes of what the header's bar shows, by name, for an overlap check. */
async function barBoxes(page: Page): Promise<{ name: string; x: number; y: number; width: number; height: number }[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('.header-inner')!;
    const shown = [
      // The bar's own items, and the navigation's links and controls while they are in the bar.
      ...bar.querySelectorAll(':scope > :not(.site-nav), .site-nav > :not(ul), .nav-list > li, .nav-account > li'),
    ].filter((el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return style.display !== 'none' && style.visibility !== 'hidden' && box.width > 0 && box.height > 0;
    });
    return shown.map((el) => {
      const box = el.getBoundingClientRect();
      return {
        name: `${el.className || el.tagName} ${el.textContent?.trim() ?? ''}`,
        x: box.x,
        y: box.y,
        width: box.width,
        height: box.height,
      };
    });
  });
}

const CASES = [
  { locale: 'de', account: 'Konto', menu: 'Menü', patchNotes: 'Patch Notes', reviews: 'Bewertungen' },
  { locale: 'ru', account: 'Аккаунт', menu: 'Меню', patchNotes: 'Список изменений', reviews: 'Отзывы' },
] as const;

for (const { locale, account, menu, patchNotes, reviews } of CASES) {
  for (const width of [1280, 1024]) {
    test(`in ${locale} at ${width} px the signed-in header fits: nothing overlaps, wraps or overflows`, async ({ page }) => {
      await page.addInitScript((chosen) => window.localStorage.setItem('locale', chosen), locale);
      await signIn(page);
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/dashboard');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const banner = page.getByRole('banner');
      await expect(banner.getByRole('button', { name: new RegExp(account) })).toBeVisible();
      await page.evaluate(() => document.fonts.ready.then(() => undefined));

      const link = banner.getByRole('link', { name: patchNotes });
      const menuButton = banner.getByRole('button', { name: menu, exact: true });
      // Either the links are in the bar on one line, or they are folded into the menu.
      if (await menuButton.isVisible()) {
        await expect(link).toBeHidden();
        await menuButton.click();
        await expect(banner.getByRole('link', { name: reviews })).toBeVisible();
        await menuButton.click();
      } else {
        const box = (await link.boundingBox())!;
        const first = (await banner.getByRole('link', { name: reviews }).boundingBox())!;
        expect(box.height).toBe(first.height);
      }

      const boxes = await barBoxes(page);
      expect(boxes.length).toBeGreaterThan(2);
      for (const [i, a] of boxes.entries()) {
        expect(a.x, `${a.name} starts on screen`).toBeGreaterThanOrEqual(0);
        expect(a.x + a.width, `${a.name} ends on screen`).toBeLessThanOrEqual(width);
        for (const b of boxes.slice(i + 1)) {
          const overlap =
            Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
            Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;
          expect(overlap, `${a.name} overlaps ${b.name}`).toBe(false);
        }
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBe(0);
    });
  }
}
