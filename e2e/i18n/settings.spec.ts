import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Settings and the account journeys in Spanish, German and Russian (decision 0326): every section of
 * the settings, its side navigation and breadcrumb speak the language chosen on the device
 * (localStorage `locale`, set before the app loads), and a moment is written the language's way.
 * Every text checked differs from the English, so a message left in English fails.
 */

type Locale = 'es' | 'de';

interface SectionTexts {
  slug: string;
  /** The section's name in the side navigation and the breadcrumb. */
  name: string;
  /** Headings the section shows (the developers section's own panel is another journey). */
  headings: string[];
  /** Buttons it shows. */
  buttons: string[];
  /** Other text it shows. */
  texts: string[];
}

const SETTINGS: Record<Locale, { settings: string; nav: string; sections: SectionTexts[] }> = {
  es: {
    settings: 'Ajustes',
    nav: 'Secciones de ajustes',
    sections: [
      {
        slug: 'account',
        name: 'Cuenta',
        headings: ['Correo electrónico', 'Apariencia'],
        buttons: ['Cambiar correo electrónico'],
        texts: ['Nuevo correo electrónico', 'Texto oscuro sobre fondo claro', 'Se guarda en este dispositivo.'],
      },
      {
        slug: 'security',
        name: 'Seguridad',
        headings: ['Sesiones activas', 'Cambiar contraseña', 'Verificación en dos pasos', 'Llaves de acceso'],
        buttons: ['Actualizar contraseña', 'Configurar app de autenticación'],
        texts: ['Este dispositivo', 'Aún no hay llaves de acceso.'],
      },
      {
        slug: 'notifications',
        name: 'Notificaciones',
        headings: ['Notificaciones'],
        buttons: ['Guardar'],
        texts: ['Evento', 'Pago detectado', 'Avísame cuando mi saldo baje de (créditos)'],
      },
      {
        slug: 'connections',
        name: 'Conexiones',
        headings: ['Cuentas conectadas'],
        buttons: ['Conectar Discord', 'Conectar Telegram'],
        texts: ['No conectado'],
      },
      { slug: 'developers', name: 'Desarrolladores', headings: [], buttons: [], texts: [] },
      {
        slug: 'privacy',
        name: 'Privacidad',
        headings: ['Privacidad', 'Descargar mis datos', 'Cuánto tiempo guardamos las cosas', 'Cerrar mi cuenta'],
        buttons: ['Solicitar una copia de mis datos', 'Cerrar mi cuenta…'],
        texts: ['Mientras tu cuenta esté abierta', 'Cuánto tiempo'],
      },
    ],
  },
  de: {
    settings: 'Einstellungen',
    nav: 'Einstellungsbereiche',
    sections: [
      {
        slug: 'account',
        name: 'Konto',
        headings: ['E-Mail-Adresse', 'Darstellung'],
        buttons: ['E-Mail-Adresse ändern'],
        texts: ['Neue E-Mail-Adresse', 'Dunkler Text auf hellem Hintergrund', 'Wird auf diesem Gerät gespeichert.'],
      },
      {
        slug: 'security',
        name: 'Sicherheit',
        headings: ['Aktive Sitzungen', 'Passwort ändern', 'Zwei-Faktor-Anmeldung'],
        buttons: ['Passwort aktualisieren', 'Authenticator-App einrichten'],
        texts: ['Dieses Gerät', 'Noch keine Passkeys.'],
      },
      {
        slug: 'notifications',
        name: 'Benachrichtigungen',
        headings: ['Benachrichtigungen'],
        buttons: ['Speichern'],
        texts: ['Ereignis', 'Zahlung erkannt', 'Benachrichtige mich, wenn mein Guthaben fällt unter (Credits)'],
      },
      {
        slug: 'connections',
        name: 'Verbindungen',
        headings: ['Verbundene Konten'],
        buttons: ['Discord verbinden', 'Telegram verbinden'],
        texts: ['Nicht verbunden'],
      },
      { slug: 'developers', name: 'Entwickler', headings: [], buttons: [], texts: [] },
      {
        slug: 'privacy',
        name: 'Datenschutz',
        headings: ['Datenschutz', 'Meine Daten herunterladen', 'Wie lange wir Dinge aufbewahren', 'Mein Konto schließen'],
        buttons: ['Eine Kopie meiner Daten anfordern', 'Mein Konto schließen…'],
        texts: ['Solange dein Konto besteht', 'Wie lange'],
      },
    ],
  },
};

/** The app starts in `locale`: the device's choice, read before the first render. */
async function startIn(page: Page, locale: string): Promise<void> {
  await page.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
}

async function completeOnboarding(page: Page, token: string): Promise<void> {
  const res = await page.request.put('/api/onboarding', { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
}

for (const locale of ['es', 'de'] as const) {
  test(`every settings section speaks ${locale}: navigation, breadcrumb, headings, buttons and labels`, async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    const { token } = await signIn(page);
    await completeOnboarding(page, token);
    await startIn(page, locale);
    await page.setViewportSize({ width: 1280, height: 900 });
    const texts = SETTINGS[locale];

    await page.goto('/dashboard/settings/account');
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.getByRole('heading', { level: 1, name: texts.settings })).toBeVisible();
    const nav = page.getByRole('navigation', { name: texts.nav });
    await expect(nav).toBeVisible();

    for (const section of texts.sections) {
      await nav.getByRole('link', { name: section.name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/settings/${section.slug}$`));
      await expect(nav.getByRole('link', { name: section.name, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('.breadcrumb [aria-current="page"]')).toHaveText(section.name);
      const main = page.getByRole('main');
      for (const heading of section.headings) await expect(main.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
      for (const button of section.buttons) await expect(main.getByRole('button', { name: button, exact: true }).first()).toBeVisible();
      for (const text of section.texts) await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
  });
}

test('the security section writes a session’s moments the German way, and Spanish forms say what is wrong in Spanish', async ({
  page,
  consoleErrors,
}) => {
  const { token } = await signIn(page);
  await completeOnboarding(page, token);
  await startIn(page, 'de');
  await page.goto('/dashboard/settings/security');
  const session = page.locator('.session-item').first();
  // "Angemeldet 07.12.2026, 15:10 · Zuletzt aktiv 07.12.2026, 15:10": day.month.year, 24-hour clock.
  await expect(session.locator('.session-meta')).toContainText(
    /Angemeldet \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} · Zuletzt aktiv \d{2}\.\d{2}\.\d{4}/,
  );

  await page.evaluate(() => window.localStorage.setItem('locale', 'es'));
  await page.addInitScript(() => window.localStorage.setItem('locale', 'es'));
  await page.reload();
  await page.getByRole('button', { name: 'Actualizar contraseña', exact: true }).click();
  await expect(page.getByText('La contraseña actual es obligatoria', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Configurar app de autenticación' }).click();
  await expect(page.getByText('Confirma tu contraseña para configurar una app de autenticación.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
  expect(consoleErrors).toEqual([]);
});

test('a settings section’s own title stays the page title, also when the language changes there', async ({ page, consoleErrors }) => {
  const { token } = await signIn(page);
  await completeOnboarding(page, token);
  await startIn(page, 'de');
  // Wide enough that the signed-in header holds its language select unfolded in German.
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto('/dashboard/settings/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
  await expect(page).toHaveTitle('Sicherheitseinstellungen · Olympus');
  // Changing the language renders the dashboard around the section again: the section's title still wins.
  await page.getByRole('combobox', { name: 'Sprache' }).selectOption('es');
  await expect(page.getByRole('heading', { level: 1, name: 'Ajustes' })).toBeVisible();
  await expect(page).toHaveTitle('Ajustes de seguridad · Olympus');
  await page.getByRole('navigation', { name: 'Secciones de ajustes' }).getByRole('link', { name: 'Privacidad', exact: true }).click();
  await expect(page).toHaveTitle('Ajustes de privacidad · Olympus');
  expect(consoleErrors).toEqual([]);
});

test('a page of the account journeys in Spanish and German: forgot password and its form', async ({ page, consoleErrors }) => {
  await startIn(page, 'es');
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { level: 1, name: '¿Olvidaste tu contraseña?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enviar enlace de restablecimiento' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Inicia sesión', exact: true })).toHaveAttribute('href', '/login');
  await expect(page).toHaveTitle(/^Contraseña olvidada · /);

  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('de');
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort vergessen?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link zum Zurücksetzen senden' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test.describe('the notification bell', () => {
  // The live count is what rings the bell here, as in e2e/notifications.
  test.use({ liveNotifications: true });

  test('speaks Russian: its name, count, panel and a notice’s time, said relative to now', async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    const { token } = await signIn(page);
    const auth = { authorization: `Bearer ${token}` };
    await completeOnboarding(page, token);
    await startIn(page, 'ru');
    await page.goto('/dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAccessibleName('Уведомления');

    await bell.click();
    const panel = page.getByRole('region', { name: 'Уведомления' });
    await expect(panel.getByRole('heading', { name: 'Уведомления' })).toBeVisible();
    await expect(panel.getByText('Пока ничего нет. Здесь появляются платежи, обмены, ответы поддержки и заказы.')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Отметить все как прочитанные' })).toBeDisabled();
    await expect(panel.getByRole('link', { name: 'Все уведомления' })).toBeVisible();
    await page.keyboard.press('Escape');

    // A sandbox payment finishes: a notice arrives, counted in Russian and dated "N секунд назад".
    const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 100 }, headers: auth });
    expect(created.status()).toBe(201);
    const payment = (await created.json()).payment as { providerPaymentId: string };
    const finished = await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
      data: { status: 'finished' },
    });
    expect((await finished.json()).ipn).toMatchObject({ delivered: true });
    await expect(page.getByTestId('notification-count')).toHaveText('1', { timeout: 30_000 });
    await expect(bell).toHaveAccessibleName('Уведомления, 1 непрочитанное');
    await bell.click();
    await expect(panel.locator('.notification-item-when time').first()).toHaveText(/назад|сейчас/);
    await expect(panel.getByRole('button', { name: 'Отметить все как прочитанные' })).toBeEnabled();
    expect(consoleErrors).toEqual([]);
  });
});
