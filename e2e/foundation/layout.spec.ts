import type { Locator, Page } from '@playwright/test';
import { expect, expectPageRendered, test } from '../support/fixtures.js';

/** The marketing pages of docs/product.md#overview and where the site links to them. */
const HEADER_PAGES = [
  { name: 'Jobs', path: '/jobs' },
  { name: 'Portfolio', path: '/portfolio' },
  { name: 'Reviews', path: '/reviews' },
  { name: 'Patch Notes', path: '/patch-notes' },
  { name: 'Status', path: '/status' },
];
const LEGAL_PAGES = [
  { name: 'Privacy', path: '/privacy' },
  { name: 'Terms', path: '/terms' },
];

const header = (page: Page) => page.getByRole('banner');
const headerNav = (page: Page) => header(page).getByRole('navigation');
const footer = (page: Page) => page.getByRole('contentinfo');

/** Nothing sticks out sideways: a phone user never has to scroll horizontally to read a page. */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { overflow, innerWidth } = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    innerWidth: window.innerWidth,
  }));
  // A mobile Chromium widens the layout viewport to fit wide content instead of scrolling: the page is
  // as wide as the phone only if innerWidth is still the phone's width.
  expect(innerWidth).toBe(page.viewportSize()?.width);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Opens the phone menu when the navigation is folded behind a button. */
async function openMenuIfFolded(page: Page, link: Locator): Promise<void> {
  if (await link.isVisible()) return;
  const toggle = header(page).getByRole('button', { name: /menu/i });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(link).toBeVisible();
}

test.describe('on a desktop screen', () => {
  test('the header navigation reaches each marketing page', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expectPageRendered(page);
    for (const { name, path } of HEADER_PAGES) {
      const link = headerNav(page).getByRole('link', { name, exact: true });
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expectPageRendered(page);
      // The current page is marked for assistive technology.
      await expect(header(page).locator(`nav a[href="${path}"]`)).toHaveAttribute('aria-current', 'page');
    }
    await headerNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectPageRendered(page);
    expect(consoleErrors).toEqual([]);
  });

  test('the footer links to the privacy and terms pages', async ({ page, consoleErrors }) => {
    await page.goto('/');
    for (const { name, path } of LEGAL_PAGES) {
      await footer(page).getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expectPageRendered(page);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('a keyboard user can skip the header and land in the content', async ({ page }) => {
    await page.goto('/');
    await expectPageRendered(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: /skip to (main )?content/i });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  });

  test('signed out, the header offers Login and Register', async ({ page }) => {
    await page.goto('/');
    await expect(headerNav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(headerNav(page).getByRole('link', { name: 'Register', exact: true })).toBeVisible();
  });
});

test.describe('on a 375px-wide phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('every marketing page fits the width', async ({ page, consoleErrors }) => {
    for (const path of ['/', ...HEADER_PAGES.map((p) => p.path), ...LEGAL_PAGES.map((p) => p.path), '/login', '/register']) {
      await page.goto(path);
      await expectPageRendered(page);
      await expectNoHorizontalScroll(page);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('the navigation works from the phone menu', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expectPageRendered(page);
    for (const { name, path } of HEADER_PAGES) {
      const link = headerNav(page).getByRole('link', { name, exact: true });
      await openMenuIfFolded(page, link);
      await link.tap();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      // The address changes before the lazily loaded page replaces the old one; the header knows the new
      // page (and folds its menu) only then, so the next tap on Menu waits for it.
      await expect(header(page).locator(`nav a[href="${path}"]`)).toHaveAttribute('aria-current', 'page');
      await expectPageRendered(page);
      await expectNoHorizontalScroll(page);
      // Following a link folds the menu away again, so the page is not hidden behind it.
      const toggle = header(page).getByRole('button', { name: /menu/i });
      if (await toggle.isVisible()) await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    }
    expect(consoleErrors).toEqual([]);
  });

  test('the phone menu closes on Escape and gives focus back to its button', async ({ page }) => {
    await page.goto('/');
    const toggle = header(page).getByRole('button', { name: /menu/i });
    await expect(toggle).toBeVisible();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(headerNav(page).getByRole('link', { name: 'Jobs', exact: true })).toBeHidden();
  });

  test('the main content is readable: text is not smaller than 12px and links are big enough to tap', async ({ page }) => {
    await page.goto('/');
    await expectPageRendered(page);
    const smallest = await page.evaluate(() => {
      let min = Infinity;
      for (const el of document.querySelectorAll('main *')) {
        if (!el.textContent?.trim() || (el as HTMLElement).offsetParent === null) continue;
        min = Math.min(min, parseFloat(getComputedStyle(el).fontSize));
      }
      return min;
    });
    expect(smallest).toBeGreaterThanOrEqual(12);
    const toggle = header(page).getByRole('button', { name: /menu/i });
    const box = await toggle.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(24);
  });
});
