import type { Page } from '@playwright/test';
import { expect, expectPageRendered, test } from '../support/fixtures.js';

/**
 * The marketing site, the legal pages and the 404 page in another language (decision 0326): headings,
 * buttons, labels and the page's <title> translated, dates and amounts written the language's way.
 * The language is the one stored on the device (localStorage key `locale`), set before the page loads.
 */

async function openIn(page: Page, locale: string, path: string): Promise<void> {
  await page.addInitScript((chosen) => window.localStorage.setItem('locale', chosen), locale);
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expectPageRendered(page);
}

test('the home page in Spanish: hero, sections, fee table and title', async ({ page, consoleErrors }) => {
  await openIn(page, 'es', '/');
  const main = page.getByRole('main');
  await expect(page).toHaveTitle('Créditos cripto, intercambios y recompensas · Olympus');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Paga con cripto. Gasta en créditos.');
  await expect(main.getByRole('link', { name: 'Crea una cuenta gratis' })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Continuar como invitado' })).toBeVisible();
  await expect(main.getByRole('heading', { name: 'Todo en un solo saldo' })).toBeVisible();
  await expect(main.getByRole('heading', { name: 'Cómo funciona' })).toBeVisible();
  const fees = main.getByRole('table', { name: 'Comisión de procesamiento según el importe de la recarga (USD)' });
  await expect(fees.getByRole('columnheader', { name: 'Comisión' })).toBeVisible();
  // Dollar amounts with the Spanish decimal comma.
  await expect(fees.getByRole('cell', { name: /^Menos de 100,00/ })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Contacto' })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByLabel('Tema')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('the home page in Russian', async ({ page }) => {
  await openIn(page, 'ru', '/');
  const main = page.getByRole('main');
  await expect(page).toHaveTitle('Криптокредиты, обмены и награды · Olympus');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Платите криптовалютой. Тратьте кредиты.');
  await expect(main.getByRole('link', { name: 'Создать бесплатный аккаунт' })).toBeVisible();
  await expect(main.getByRole('heading', { name: 'Как это работает' })).toBeVisible();
});

test('jobs, reviews, portfolio, patch notes and advertising in German', async ({ page }) => {
  await openIn(page, 'de', '/jobs');
  let main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Arbeite an Olympus' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Offene Stellen' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 3, name: 'Senior Backend Engineer, Zahlungen' })).toBeVisible();
  await expect(main.getByText('Aufgaben und Anforderungen').first()).toBeVisible();

  await page.goto('/reviews');
  main = page.getByRole('main');
  await expect(page).toHaveTitle('Bewertungen · Olympus');
  await expect(main.getByRole('heading', { level: 1, name: 'Was unsere Kunden sagen' })).toBeVisible();
  await expect(main.getByRole('img', { name: /^Bewertet mit \d von 5$/ }).first()).toBeVisible();

  await page.goto('/portfolio');
  main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Was wir gebaut haben' })).toBeVisible();
  await expect(main.getByRole('list', { name: 'Projekte' })).toBeVisible();

  await page.goto('/patch-notes');
  main = page.getByRole('main');
  await expect(main.getByText('Änderungsprotokoll')).toBeVisible();
  await expect(main.getByRole('list', { name: 'Versionen' })).toBeVisible();
  // The release date as German writes it.
  await expect(main.locator('time[datetime="2026-11-18"]')).toHaveText('18. November 2026');

  await page.goto('/advertise');
  main = page.getByRole('main');
  await expect(page).toHaveTitle('Bei uns werben · Olympus');
  await expect(main.getByRole('heading', { level: 2, name: 'Preise' })).toBeVisible();
  // Credits with the German decimal comma.
  await expect(main.getByText('2,00 Credits', { exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Kampagne starten' })).toBeVisible();
});

test('jobs and advertising in Spanish', async ({ page }) => {
  await openIn(page, 'es', '/jobs');
  let main = page.getByRole('main');
  await expect(page).toHaveTitle('Empleo · Olympus');
  await expect(main.getByRole('heading', { level: 1, name: 'Trabaja en Olympus' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Cómo postular' })).toBeVisible();
  await expect(main.getByRole('list', { name: 'Puestos abiertos' }).getByText('Jornada completa').first()).toBeVisible();

  await page.goto('/advertise');
  main = page.getByRole('main');
  await expect(page).toHaveTitle('Anúnciate con nosotros · Olympus');
  await expect(main.getByRole('heading', { level: 2, name: 'Precios' })).toBeVisible();
  await expect(main.getByText('2,00 créditos', { exact: true })).toBeVisible();
});

test('the privacy policy in Spanish, then in German from the header without a reload', async ({ page }) => {
  await openIn(page, 'es', '/privacy');
  const main = page.getByRole('main');
  await expect(page).toHaveTitle('Política de privacidad · Olympus');
  await expect(main.getByRole('heading', { level: 1, name: 'Política de privacidad' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Datos que recopilamos' })).toBeVisible();
  await expect(main.getByRole('navigation', { name: 'Secciones de Política de privacidad' })).toBeVisible();
  // The date the policy changed, as Spanish writes it.
  await expect(main.locator('time').first()).toHaveText('26 de noviembre de 2026');

  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(main.getByRole('heading', { level: 1, name: 'Datenschutzerklärung' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Welche Daten wir erheben' })).toBeVisible();
  await expect(page).toHaveTitle('Datenschutzerklärung · Olympus');
  await expect(main.locator('time').first()).toHaveText('26. November 2026');
});

test('the terms of service in German', async ({ page }) => {
  await openIn(page, 'de', '/terms');
  const main = page.getByRole('main');
  await expect(page).toHaveTitle('Nutzungsbedingungen · Olympus');
  await expect(main.getByRole('heading', { level: 1, name: 'Nutzungsbedingungen' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Credits', exact: true })).toBeVisible();
  await expect(main.getByText(/^Zuletzt aktualisiert/)).toHaveText('Zuletzt aktualisiert: 18. November 2026');
  // The fee tiers in running text, with German amounts.
  await expect(main.getByText(/5 % unter 100,00/)).toBeVisible();
});

for (const { locale, title, heading, home } of [
  { locale: 'es', title: 'Página no encontrada · Olympus', heading: 'Página no encontrada', home: 'Ir a la página de inicio' },
  { locale: 'de', title: 'Seite nicht gefunden · Olympus', heading: 'Seite nicht gefunden', home: 'Zur Startseite' },
]) {
  test(`the 404 page in ${locale}`, async ({ page }) => {
    await openIn(page, locale, '/no-such-page');
    const main = page.getByRole('main');
    await expect(page).toHaveTitle(title);
    await expect(main.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(main.getByText('/no-such-page')).toBeVisible();
    await expect(main.getByRole('link', { name: home })).toHaveAttribute('href', '/');
  });
}

/**
 * The page before JavaScript (decision 0331): the server writes `<html lang>`, the title and the
 * OpenGraph tags a link preview reads in the visitor's language, from the `locale` cookie the language
 * switch writes, else the browser's Accept-Language.
 */
test.describe('the link preview in the visitor language', () => {
  test.use({ locale: 'es-ES' });

  test('a Spanish browser gets the home page and its og:title in Spanish from the server', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    // What the server sent, before any script ran.
    const served = await response!.text();
    expect(served).toContain('<html lang="es"');
    expect(served).toContain('<meta property="og:title" content="Créditos cripto, intercambios y recompensas · Olympus" />');
    expect(served).toContain('<meta property="og:locale" content="es_ES" />');
    await expectPageRendered(page);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      'content',
      'Créditos cripto, intercambios y recompensas · Olympus',
    );
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'es_ES');
    await expect(page).toHaveTitle('Créditos cripto, intercambios y recompensas · Olympus');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  });

  test('the language chosen in the header is the server’s next answer too, the 404 included', async ({ page, context }) => {
    await page.goto('/privacy');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expectPageRendered(page);
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect((await context.cookies()).find((cookie) => cookie.name === 'locale')?.value).toBe('de');

    const reloaded = await page.reload();
    const served = await reloaded!.text();
    expect(served).toContain('<html lang="de"');
    expect(served).toContain('<title>Datenschutzerklärung · Olympus</title>');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Datenschutzerklärung · Olympus');

    const missing = await page.goto('/no-such-page');
    expect(missing?.status()).toBe(404);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Seite nicht gefunden · Olympus');
    await expect(page).toHaveTitle('Seite nicht gefunden · Olympus');
  });
});
