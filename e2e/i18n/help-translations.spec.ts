import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * Help articles in the reader's language (decision 0328): staff write an article's translation in the
 * help editor, read in the editor's language; a reader of that language reads the translation, a
 * reader of another language the English. The language is chosen on the device (localStorage `locale`).
 */

async function inLanguage(page: Page, locale: 'en' | 'es' | 'de' | 'ru', path: string): Promise<void> {
  await page.evaluate((l) => window.localStorage.setItem('locale', l), locale);
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

test('staff translate an article into German in the help editor; German readers read it, Spanish readers the English', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const title = `Withdrawing credits ${tag}`;
  const germanTitle = `Credits auszahlen ${tag}`;
  const support = await staffPage(browser, 'support');
  try {
    await support.goto('/dashboard/staff/help');
    await support.getByLabel('Title').fill(title);
    await support.getByLabel('Category').fill('Payments');
    await support.getByLabel('Article (Markdown)').fill(`Credits **cannot** be withdrawn ${tag}.`);
    await support.getByLabel('Status').selectOption('published');
    await support.getByRole('button', { name: 'Save article' }).click();
    await expect(support.getByText(`“${title}” is published`)).toBeVisible();

    // The editor in German: its headings, labels and buttons, and the translation's own words.
    await inLanguage(support, 'de', '/dashboard/staff/help');
    await expect(support.getByRole('heading', { name: 'Hilfe-Center' })).toBeVisible();
    await expect(support.getByRole('heading', { name: 'Artikel schreiben' })).toBeVisible();
    await support
      .getByRole('table', { name: 'Hilfeartikel' })
      .getByRole('row', { name: new RegExp(title) })
      .getByRole('button', { name: /Bearbeiten/ })
      .click();
    const language = support.getByLabel('Sprache des Artikels');
    await expect(language).toHaveValue('en');
    await expect(language.locator('option[value="en"]')).toHaveText('Englisch (der Artikel)');
    await expect(language.locator('option[value="de"]')).toHaveText('Deutsch (noch keine Übersetzung)');
    await expect(support.getByText('Wer eine andere Sprache liest, sieht deren Übersetzung')).toBeVisible();
    await language.selectOption('de');
    await expect(support.getByText('Wer Deutsch gewählt hat, sieht diese Übersetzung')).toBeVisible();
    await expect(support.getByLabel('Adresse')).toHaveCount(0);
    await support.getByLabel('Titel').fill(germanTitle);
    await support.getByLabel('Artikel (Markdown)').fill(`Credits können **nicht** ausgezahlt werden ${tag}.`);
    await support.getByRole('button', { name: 'Übersetzung speichern' }).click();
    await expect(support.getByText('Die Übersetzung (Deutsch) ist gespeichert')).toBeVisible();
    await expect(support.getByRole('button', { name: 'Übersetzung entfernen' })).toBeVisible();
    await expect(language.locator('option[value="de"]')).toHaveText('Deutsch');

    // The same editor in Russian.
    await inLanguage(support, 'ru', '/dashboard/staff/help');
    await expect(support.getByRole('heading', { name: 'Справочный центр' })).toBeVisible();
    await support
      .getByRole('table', { name: 'Справочные статьи' })
      .getByRole('row', { name: new RegExp(title) })
      .getByRole('button', { name: /Изменить/ })
      .click();
    await expect(support.getByLabel('Язык статьи').locator('option[value="en"]')).toHaveText('Английский (сама статья)');
    await expect(support.getByLabel('Язык статьи').locator('option[value="es"]')).toHaveText('Español (перевода пока нет)');
    await inLanguage(support, 'en', '/dashboard/staff/help');
  } finally {
    await support.context().close();
  }

  // A German reader: the list, the search and the article in German.
  await page.goto('/');
  await inLanguage(page, 'de', '/help');
  await expect(page.getByRole('heading', { level: 1, name: 'Wie können wir helfen?' })).toBeVisible();
  await page.getByLabel('Im Hilfe-Center suchen').fill(`ausgezahlt ${tag}`);
  await expect(page.getByRole('link', { name: germanTitle })).toBeVisible();
  await page.getByRole('link', { name: germanTitle }).click();
  await expect(page.getByRole('heading', { level: 1, name: germanTitle })).toBeVisible();
  await expect(page.getByRole('main').locator('strong', { hasText: 'nicht' })).toBeVisible();

  // A Spanish reader: the page in Spanish, the article in English (it has no Spanish translation).
  await inLanguage(page, 'es', `/help/withdrawing-credits-${tag}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Ruta de navegación' }).getByRole('link', { name: 'Centro de ayuda' })).toBeVisible();
  await expect(page.getByRole('main').locator('strong', { hasText: 'cannot' })).toBeVisible();
});
