import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { ISOLATED_ADMIN, startIsolatedServer, type IsolatedServer } from '../support/isolated-server.js';
import { staffPage } from '../support/staff-login.js';

/**
 * The staff console in other languages (decision 0326): navigation, headings, buttons and labels of its
 * main sections, and dates written the language's way. The language is chosen on the device only
 * (localStorage `locale`), so the shared staff accounts keep English for the other specs.
 */

async function inLanguage(page: Page, locale: 'es' | 'de' | 'ru'): Promise<void> {
  await page.evaluate((l) => window.localStorage.setItem('locale', l), locale);
  await page.goto('/dashboard/staff');
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

test('an admin reads the staff console in Spanish', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await staffPage(browser, 'admin');
  try {
    await inLanguage(admin, 'es');
    await expect(admin.getByRole('heading', { level: 1, name: 'Consola del personal' })).toBeVisible();
    await expect(admin).toHaveTitle(/Consola del personal/);
    const nav = admin.getByRole('navigation', { name: 'Personal' });
    await expect(nav.getByRole('link', { name: 'Resumen' })).toBeVisible();
    await expect(nav.getByText('Personas', { exact: true })).toBeVisible();
    await expect(admin.getByRole('heading', { level: 2, name: 'Resumen' })).toBeVisible();
    await expect(
      admin
        .getByRole('figure')
        .filter({ hasText: 'Registros' })
        .getByText(/en 30 días/),
    ).toBeVisible();

    await nav.getByRole('link', { name: 'Usuarios' }).click();
    await expect(admin).toHaveURL(/\/dashboard\/staff\/users$/);
    await expect(admin.getByRole('heading', { name: 'Usuarios', exact: true })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Cuentas que deben créditos' })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Esperando a un segundo administrador' })).toBeVisible();
    await expect(admin.getByPlaceholder('Nombre de usuario, email, id o código de referido')).toBeVisible();
    await admin.getByRole('search').getByRole('button', { name: 'Buscar' }).click();
    const users = admin.getByRole('table', { name: 'Usuarios' });
    await expect(users.getByRole('columnheader', { name: 'Nombre de usuario' })).toBeVisible();
    await expect(users.getByRole('columnheader', { name: 'Créditos' })).toBeVisible();

    await nav.getByRole('link', { name: 'Cuentas en cierre' }).click();
    await expect(admin.getByRole('heading', { name: 'Cuentas en cierre' })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Pagos posteriores al borrado' })).toBeVisible();

    await nav.getByRole('link', { name: 'Pagos' }).click();
    await expect(admin.getByRole('heading', { name: 'Pagos', exact: true })).toBeVisible();
    const filters = admin.getByRole('form', { name: 'Filtrar pagos' });
    await expect(filters.getByText('Estado', { exact: true })).toBeVisible();
    await expect(filters.getByText('Moneda', { exact: true })).toBeVisible();

    await nav.getByRole('link', { name: 'Registro de auditoría' }).click();
    await expect(admin.getByRole('heading', { name: 'Registro de auditoría' })).toBeVisible();
    await expect(admin.getByPlaceholder('Miembro del personal, email del cliente, acción o motivo')).toBeVisible();

    await nav.getByRole('link', { name: 'Automatización' }).click();
    await expect(admin.getByRole('heading', { name: 'Automatización' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Nueva regla' })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Cierre automático' })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Últimas ejecuciones' })).toBeVisible();

    await nav.getByRole('link', { name: 'Horario laboral y SLA' }).click();
    await expect(admin.getByRole('heading', { name: 'Horario laboral y SLA' })).toBeVisible();
    await expect(admin.getByRole('checkbox', { name: 'Lunes' })).toBeVisible();
    await expect(admin.getByLabel('Zona horaria')).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Guardar horario laboral' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Añadir festivo' })).toBeVisible();

    await nav.getByRole('link', { name: 'Informes' }).click();
    await expect(admin.getByRole('heading', { name: 'Informes de soporte' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Descargar CSV' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Ver informe' })).toBeVisible();
    // The range's dates as Spanish writes them: "del 13 de octubre de 2026 al 7 de diciembre de 2026".
    await expect(admin.getByText(/^Tickets creados del \d{1,2} de [a-z]+ de \d{4} al \d{1,2} de [a-z]+ de \d{4}/)).toBeVisible();
  } finally {
    await admin.context().close();
  }
});

test('an admin reads the staff console in German', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await staffPage(browser, 'admin');
  try {
    await inLanguage(admin, 'de');
    await expect(admin.getByRole('heading', { level: 1, name: 'Mitarbeiterkonsole' })).toBeVisible();
    const nav = admin.getByRole('navigation', { name: 'Team' });
    await expect(nav.getByRole('link', { name: 'Übersicht' })).toBeVisible();
    await expect(admin.getByRole('heading', { level: 2, name: 'Übersicht' })).toBeVisible();
    // The credits figures with the German decimal comma ("97,00 in 30 Tage…"), never "97.00".
    const issued = admin.getByRole('figure').filter({ hasText: 'Ausgegebene Credits' });
    await expect(issued.getByText(/^\d+,\d{2} in 30 Tage/)).toBeVisible();
    await expect(admin.getByRole('figure').getByText(/\d\.\d{2}\b/)).toHaveCount(0);

    await nav.getByRole('link', { name: 'Nutzer' }).click();
    await expect(admin.getByRole('heading', { name: 'Nutzer', exact: true })).toBeVisible();
    await expect(admin.getByRole('heading', { name: 'Konten, die Credits schulden' })).toBeVisible();
    await admin.getByRole('search').getByRole('button', { name: 'Suchen' }).click();
    // Each account's credits as German writes them: "1000,00", never "1000.00".
    const users = admin.getByRole('table', { name: 'Nutzer' });
    await expect(users.getByRole('cell', { name: /^-?\d+,\d{2}$/ }).first()).toBeVisible();
    await expect(users.getByRole('cell', { name: /^-?\d+\.\d{2}$/ })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Zahlungen' }).click();
    await expect(admin.getByRole('heading', { name: 'Zahlungen', exact: true })).toBeVisible();
    await expect(admin.getByRole('form', { name: 'Zahlungen filtern' }).getByText('Währung', { exact: true })).toBeVisible();

    await nav.getByRole('link', { name: 'Audit-Log' }).click();
    await expect(admin.getByRole('heading', { name: 'Audit-Log' })).toBeVisible();

    await nav.getByRole('link', { name: 'Automatisierung' }).click();
    await expect(admin.getByRole('button', { name: 'Neue Regel' })).toBeVisible();

    await nav.getByRole('link', { name: 'Geschäftszeiten & SLA' }).click();
    await expect(admin.getByRole('heading', { name: 'Geschäftszeiten & SLA' })).toBeVisible();
    await expect(admin.getByRole('checkbox', { name: 'Montag' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Arbeitszeiten speichern' })).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Ziele pro Priorität' }).getByRole('rowheader', { name: 'Dringend' })).toBeVisible();

    await nav.getByRole('link', { name: 'Berichte' }).click();
    await expect(admin.getByRole('heading', { name: 'Support-Berichte' })).toBeVisible();
    await expect(admin.getByRole('button', { name: 'CSV herunterladen' })).toBeVisible();
    // The range's dates as German writes them: "vom 13. Oktober 2026 bis 7. Dezember 2026".
    await expect(admin.getByText(/^Tickets, erstellt vom \d{1,2}\. \p{L}+ \d{4} bis \d{1,2}\. \p{L}+ \d{4}/u)).toBeVisible();
  } finally {
    await admin.context().close();
  }
});

test('support staff read the staff console in Russian', async ({ browser }) => {
  test.setTimeout(120_000);
  const support = await staffPage(browser, 'support');
  try {
    await inLanguage(support, 'ru');
    await expect(support.getByRole('heading', { level: 1, name: 'Консоль сотрудников' })).toBeVisible();
    const nav = support.getByRole('navigation', { name: 'Сотрудники' });
    await expect(support.getByRole('heading', { level: 2, name: 'Обзор' })).toBeVisible();
    await nav.getByRole('link', { name: 'Отчёты' }).click();
    await expect(support.getByRole('heading', { name: 'Отчёты поддержки' })).toBeVisible();
    await expect(support.getByRole('button', { name: 'Скачать CSV' })).toBeVisible();
    await expect(support.getByText(/^Обращения, созданные с \d{1,2} \p{L}+ \d{4} г\. по/u)).toBeVisible();
  } finally {
    await support.context().close();
  }
});

/**
 * Codes the console used to show as they are stored (a role, an incident's impact and status, a
 * component's id) read as words in German and Russian, and the notice a form shows during an incident
 * is a whole sentence in Spanish. An incident changes what every page says, so this runs on a server of
 * its own, as e2e/status does.
 */
test.describe('codes and incident notices in other languages', () => {
  test.describe.configure({ timeout: 180_000 });
  let server: IsolatedServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startIsolatedServer({});
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('German staff read roles, impacts, statuses and components as words; a Spanish top-up form says an incident slows it', async ({
    browser,
    request,
  }) => {
    const login = await request.post(`${server.url}/api/login`, {
      data: { username: ISOLATED_ADMIN.username, password: ISOLATED_ADMIN.password, turnstileToken: 'ok', rememberMe: false },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { token: adminToken, user: adminUser } = (await login.json()) as { token: string; user: { _id: string } };
    const headers = { authorization: `Bearer ${adminToken}` };
    const posted = await request.post(`${server.url}/api/status/incidents`, {
      headers,
      data: { title: 'Top-ups are delayed', impact: 'minor', components: ['payment-provider'], message: 'Looking into it.' },
    });
    expect(posted.status()).toBe(201);

    const staffContext = await browser.newContext();
    const admin = await staffContext.newPage();
    try {
      await admin.addInitScript((t) => {
        window.localStorage.setItem('token', t);
        window.localStorage.setItem('locale', 'de');
      }, adminToken);
      await admin.goto(`${server.url}/dashboard/staff/incidents`);
      await expect(admin.locator('html')).toHaveAttribute('lang', 'de');
      await expect(admin.getByRole('heading', { name: 'Vorfälle', exact: true })).toBeVisible();
      // "minor · investigating", in German.
      await expect(admin.getByText('gering · wird untersucht', { exact: true })).toBeVisible();
      await expect(admin.getByRole('checkbox', { name: 'Zahlungsanbieter' })).toBeVisible();
      await expect(admin.getByRole('checkbox', { name: 'Tauschanbieter' })).toBeVisible();
      await expect(admin.getByLabel('Auswirkung', { exact: true }).locator('option:checked')).toHaveText('gering');

      await admin.goto(`${server.url}/dashboard/staff/users/${adminUser._id}`);
      await expect(admin.getByRole('heading', { name: ISOLATED_ADMIN.username })).toBeVisible();
      await expect(admin.locator('.admin-facts dd').filter({ hasText: 'Administrator' }).first()).toBeVisible();

      // The same incident in Russian.
      await admin.evaluate(() => window.localStorage.setItem('locale', 'ru'));
      await admin.addInitScript(() => window.localStorage.setItem('locale', 'ru'));
      await admin.goto(`${server.url}/dashboard/staff/incidents`);
      await expect(admin.locator('html')).toHaveAttribute('lang', 'ru');
      await expect(admin.getByText('незначительное · выясняем', { exact: true })).toBeVisible();
    } finally {
      await staffContext.close();
    }

    const username = `notice_es_${Date.now().toString(36)}`;
    const registered = await request.post(`${server.url}/api/register`, {
      data: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    await request.put(`${server.url}/api/onboarding`, { data: { completed: true }, headers: { authorization: `Bearer ${token}` } });
    const userContext = await browser.newContext();
    const page = await userContext.newPage();
    try {
      await page.addInitScript((t) => {
        window.localStorage.setItem('token', t);
        window.localStorage.setItem('locale', 'es');
      }, token);
      await page.goto(`${server.url}/dashboard/wallet`);
      const notice = page.getByTestId('component-notice-payment-provider');
      await expect(notice).toContainText('Top-ups are delayed');
      await expect(notice).toContainText('Las recargas pueden tardar más de lo normal en este momento.');
      await expect(notice.getByRole('link', { name: 'Consulta la página de estado' })).toBeVisible();
    } finally {
      await userContext.close();
    }
  });
});
