import type { Page } from '@playwright/test';
import { expect } from '../support/fixtures.js';

/**
 * Chooses a language with the header's select, named `selectName` in the language on screen ('Idioma').
 * A longer language folds the header into its menu at widths where English fits on one line, so the
 * menu is opened first when it is folded, and closed after.
 */
export async function chooseInHeader(page: Page, selectName: string, locale: string): Promise<void> {
  const banner = page.getByRole('banner');
  const select = banner.getByRole('combobox', { name: selectName });
  const menu = banner.locator('.menu-button');
  await expect(select.or(menu).first()).toBeVisible();
  const opened = (await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true';
  if (opened) await menu.click();
  await select.selectOption(locale);
  // The open menu lies over the page: closed again (its button is named in the new language by now).
  if (opened) await banner.getByRole('button', { expanded: true }).click();
}
