import type { Page } from '@playwright/test';
import { expect, expectPageRendered, quietNotificationStream, test } from '../support/fixtures.js';

/**
 * The product in several languages (decision 0326): the header's Language menu, the language kept on
 * the device across reloads and stored on the account, `<html lang>` following, addresses unchanged.
 */

const html = (page: Page) => page.locator('html');

async function registerAndSignIn(page: Page): Promise<{ token: string; username: string }> {
  const username = `lang_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await page.request.post('/api/register', {
    data: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  const onboarding = await page.request.put('/api/onboarding', {
    data: { completed: true },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(onboarding.status()).toBe(200);
  return { token, username };
}

test('a visitor switches to Spanish in the header, sees the header and sign-in in Spanish, and keeps it after a reload', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/');
  await expect(html(page)).toHaveAttribute('lang', 'en');
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Login' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');

  await expect(html(page)).toHaveAttribute('lang', 'es');
  const principal = page.getByRole('navigation', { name: 'Principal' });
  await expect(principal.getByRole('link', { name: 'Inicio' })).toBeVisible();
  await expect(principal.getByRole('link', { name: 'Acceder' })).toBeVisible();
  await expect(principal.getByRole('link', { name: 'Registrarse' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');

  // The same address in every language.
  await principal.getByRole('link', { name: 'Acceder' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByLabel('Nombre de usuario')).toBeVisible();
  await expect(page.getByLabel('Contraseña')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'términos', exact: true })).toHaveAttribute('href', '/terms');

  await page.reload();
  await expect(html(page)).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Inicio' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('locale'))).toBe('es');
  expect(consoleErrors).toEqual([]);
});

test("a signed-in person's choice is stored on the account, and another device starts in it", async ({ page, browser, consoleErrors }) => {
  const { token } = await registerAndSignIn(page);
  const auth = { authorization: `Bearer ${token}` };
  const me = async () =>
    ((await (await page.request.get('/api/auth/me', { headers: auth })).json()) as { user: { locale: string | null } }).user;
  expect((await me()).locale).toBeNull();

  await page.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
  await page.goto('/dashboard');
  await expectPageRendered(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(html(page)).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect.poll(async () => (await me()).locale).toBe('de');

  // Another device: the same account, nothing chosen there yet.
  const other = await browser.newContext();
  try {
    await quietNotificationStream(other);
    const second = await other.newPage();
    await second.addInitScript((t) => {
      window.localStorage.setItem('token', t);
      window.localStorage.setItem('userType', 'user');
    }, token);
    await second.goto('/dashboard');
    await expect(html(second)).toHaveAttribute('lang', 'de');
    await expect(second.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
  } finally {
    await other.close();
  }
  expect(consoleErrors).toEqual([]);
});

test.describe('a first visit', () => {
  test.use({ locale: 'ru-RU' });

  test("starts in the browser's language when the product speaks it", async ({ page }) => {
    await page.goto('/register');
    await expect(html(page)).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1, name: 'Создайте аккаунт' })).toBeVisible();
    // Russian links are longer than English: where they do not fit, the header folds them into its menu.
    const menu = page.getByRole('banner').getByRole('button', { name: 'Меню', exact: true });
    if (await menu.isVisible()) await menu.click();
    await expect(page.getByRole('navigation', { name: 'Основное меню' }).getByRole('link', { name: 'Главная' })).toBeVisible();
  });
});
