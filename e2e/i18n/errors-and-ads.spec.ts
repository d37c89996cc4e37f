import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { chooseInHeader } from './choose-language.js';

/**
 * Errors and the ads and webhooks screens in other languages (decision 0326): a shared schema's
 * validation message and an error code's message (src/web/lib/validation-messages.ts,
 * src/web/lib/error-messages.ts) in Spanish and German, the webhooks settings and Dashboard → Advertise
 * in German (amounts written the German way), and Advertise in Russian; the new ticket form with the
 * server's field messages from the ticket schema in Spanish and German.
 */
const SLOW = { timeout: 30_000 };

async function signInIn(page: Page, locale: string): Promise<void> {
  const { token } = await signIn(page);
  await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
  await page.addInitScript((chosen) => window.localStorage.setItem('locale', chosen), locale);
}

/** The server's answer to "send a test" while a delivery is in flight: a fixed message for its code. */
async function answerTestBusy(page: Page): Promise<void> {
  await page.unroute('**/api/users/webhook-settings/test');
  await page.route('**/api/users/webhook-settings/test', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'This delivery is being sent right now; try again in a moment', code: 'WEBHOOK_DELIVERY_BUSY' }),
    }),
  );
}

/** The server's answer when the rate limit is hit: the English message, the wait in `details` (src/server/errors.ts). */
async function answerRateLimited(page: Page, seconds: number): Promise<void> {
  await page.unroute('**/api/users/webhook-settings/test');
  await page.route('**/api/users/webhook-settings/test', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      headers: { 'retry-after': String(seconds) },
      body: JSON.stringify({
        error: `Too many requests. Try again in ${seconds} seconds.`,
        code: 'RATE_LIMITED',
        details: { retryAfter: seconds },
      }),
    }),
  );
}

test('a validation message and an API error in Spanish, then the webhooks settings in German', async ({ page, consoleErrors }) => {
  await signInIn(page, 'es');
  await page.goto('/dashboard/settings/developers');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  const panel = page.getByRole('region', { name: 'Webhooks' });
  const url = panel.getByLabel('URL del webhook');
  await expect(url).toBeVisible(SLOW);
  await expect(panel.getByRole('button', { name: 'Enviar prueba' })).toBeDisabled();
  await expect(panel.getByText('Todavía no hay entregas.', { exact: false })).toBeVisible();

  // The shared schema's message, said in Spanish under the field.
  await url.fill('ftp://example.com/hook');
  await panel.getByRole('button', { name: 'Guardar webhook' }).click();
  await expect(panel.getByText('La URL debe empezar por https://')).toBeVisible();
  await expect(panel.getByText('The URL must start with https://')).toHaveCount(0);

  await url.fill('http://127.0.0.1:9/olympus-i18n');
  await panel.getByRole('button', { name: 'Guardar webhook' }).click();
  await expect(page.getByText('Ajustes del webhook guardados')).toBeVisible(SLOW);
  await expect(panel.getByRole('group', { name: 'Secreto de firma' })).toBeVisible();

  // An error code's message, in Spanish.
  await answerTestBusy(page);
  await panel.getByRole('button', { name: 'Enviar prueba' }).click();
  await expect(page.getByText('Esta entrega se está enviando ahora mismo; inténtalo de nuevo en un momento')).toBeVisible();

  // A rate limit's answer with its wait in the details (src/server/errors.ts): the wait in Spanish words.
  await answerRateLimited(page, 90);
  await panel.getByRole('button', { name: 'Enviar prueba' }).click();
  await expect(page.getByText('Demasiadas solicitudes. Vuelve a intentarlo en 90 segundos.')).toBeVisible();
  await expect(page.getByText(/Too many requests/)).toHaveCount(0);

  // German, chosen in the header: the same screen, its labels and the same two messages.
  await chooseInHeader(page, 'Idioma', 'de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(panel.getByLabel('Webhook-URL')).toBeVisible();
  await expect(panel.getByRole('group', { name: 'Signaturgeheimnis' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Geheimnis rotieren' })).toBeVisible();
  await expect(panel.getByRole('group', { name: 'Ereignisse' })).toBeVisible();
  await expect(panel.getByText('Zahlung abgeschlossen')).toBeVisible();
  await expect(panel.getByRole('switch', { name: 'Webhooks senden' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Letzte Zustellungen' })).toBeVisible();
  await answerTestBusy(page);
  await panel.getByRole('button', { name: 'Test senden' }).click();
  await expect(page.getByText('Diese Zustellung wird gerade gesendet; versuche es gleich noch einmal')).toBeVisible();
  await answerRateLimited(page, 600);
  await panel.getByRole('button', { name: 'Test senden' }).click();
  await expect(page.getByText('Zu viele Anfragen. Versuche es in 10 Minuten erneut.')).toBeVisible();

  await panel.getByLabel('Webhook-URL').fill('ftp://example.com/hook');
  await panel.getByRole('button', { name: 'Webhook speichern' }).click();
  await expect(panel.getByText('Die URL muss mit https:// beginnen')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('Dashboard → Advertise in German, with German amounts and a server validation message in German', async ({ page, consoleErrors }) => {
  await signInIn(page, 'de');
  await page.goto('/dashboard/advertise');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1, name: 'Werbung' })).toBeVisible(SLOW);
  await expect(page.getByRole('heading', { name: 'Meine Kampagnen' })).toBeVisible();
  await expect(page.getByText('Noch keine Kampagnen. Erstelle unten deine erste.')).toBeVisible(SLOW);
  await expect(page.getByRole('link', { name: 'Preise und Regeln' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Neue Kampagne' });
  await expect(form.getByRole('group', { name: 'Wo sie erscheint' })).toBeVisible();
  await expect(form.getByLabel('Banner auf der Startseite')).toBeChecked();
  await expect(form.getByLabel('Bezahlen für')).toBeVisible();
  await expect(form.getByLabel('Gesamtbudget (Credits)')).toBeVisible();
  await expect(form.getByLabel('Link (http oder https)')).toBeVisible();
  // The amount on the button, with the German decimal comma.
  await form.getByLabel('Gesamtbudget (Credits)').fill('1234.5');
  await expect(form.getByRole('button', { name: 'Erstellen und 1.234,50 Credits reservieren' })).toBeVisible();
  await form.getByLabel('Gesamtbudget (Credits)').fill('5.00');
  await expect(form.getByRole('button', { name: 'Erstellen und 5,00 Credits reservieren' })).toBeVisible();

  // A price below the minimum: the server's field message, shown in German under the price.
  await form.getByLabel('Name der Kampagne').fill('Kampagne auf Deutsch');
  await form.getByLabel(/^Preis/).fill('0.01');
  await form.getByLabel('Titel').fill('Sichere Verwahrung');
  await form.getByLabel('Link (http oder https)').fill('https://wallets.example/angebot');
  await form.getByRole('button', { name: 'Erstellen und 5,00 Credits reservieren' }).click();
  await expect(form.getByText(/^Der Preis muss mindestens \d+\.\d{2} Credits betragen$/)).toBeVisible(SLOW);
  await expect(form.getByText(/The price must be at least/)).toHaveCount(0);
  // The refusal's own message (VALIDATION_ERROR), its schema message in German too.
  await expect(page.getByText(/^Ungültige Anfrage: priceCents: Der Preis muss mindestens \d+\.\d{2} Credits betragen$/)).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("the new ticket form shows the ticket schema's messages in Spanish, then in German", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  await signInIn(page, 'es');
  await page.goto('/dashboard/support');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.getByRole('button', { name: 'Nuevo ticket' }).click();
  const spanish = page.getByRole('dialog', { name: 'Nuevo ticket de soporte' });
  // A subject shorter than src/shared/schemas/tickets.ts allows: the server refuses it (VALIDATION_ERROR),
  // and its field message is said under the field in the page's language.
  await spanish.getByLabel('Asunto').fill('ab');
  await spanish.getByLabel('¿En qué podemos ayudarte?').fill('No me llega la recarga.');
  await spanish.getByRole('button', { name: 'Crear ticket' }).click();
  await expect(spanish.getByText('El asunto debe tener al menos 3 caracteres')).toBeVisible(SLOW);
  await expect(spanish.getByText('Subject must be at least 3 characters')).toHaveCount(0);
  await spanish.getByRole('button', { name: 'Cancelar' }).click();
  await expect(spanish).toBeHidden();

  await chooseInHeader(page, 'Idioma', 'de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByRole('button', { name: 'Neues Ticket' }).click();
  const german = page.getByRole('dialog', { name: 'Neues Support-Ticket' });
  await german.getByLabel('Betreff').fill('ab');
  await german.getByLabel('Wie können wir helfen?').fill('Meine Aufladung ist nicht angekommen.');
  await german.getByRole('button', { name: 'Ticket erstellen' }).click();
  await expect(german.getByText('Der Betreff muss mindestens 3 Zeichen lang sein')).toBeVisible(SLOW);
  await expect(german.getByText('Subject must be at least 3 characters')).toHaveCount(0);
  await expect(german.getByText('El asunto debe tener al menos 3 caracteres')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('Dashboard → Advertise in Russian', async ({ page, consoleErrors }) => {
  await signInIn(page, 'ru');
  await page.goto('/dashboard/advertise');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1, name: 'Реклама' })).toBeVisible(SLOW);
  await expect(page.getByRole('heading', { name: 'Мои кампании' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Новая кампания' });
  await expect(form.getByLabel('Название кампании')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Создать и зарезервировать 5,00 кредитов' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
