import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '#shared/constants.js';
import { parsePo } from '#server/i18n/po.js';
import { acceptedLocale, supportedLocale } from '#server/i18n/request-language.js';
import { call, registerUser, startGuest } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { ensureWebBuild } from '#server/test/web-build.js';
import { DEFAULT_DESCRIPTION, NOT_FOUND_MESSAGES, PAGE_MESSAGES, WEB_LOCALES_FOLDER } from './page-head.js';

/** What a crawler or a link preview reads from the page before any JavaScript runs (docs/decisions/0331). */
function head(html: string) {
  const doc = new JSDOM(html).window.document;
  const og = (property: string) => [...doc.querySelectorAll(`meta[property="${property}"]`)].map((tag) => tag.getAttribute('content'));
  return {
    lang: doc.documentElement.getAttribute('lang'),
    title: doc.title,
    description: doc.querySelector('meta[name="description"]')?.getAttribute('content'),
    ogTitle: og('og:title'),
    ogDescription: og('og:description'),
    ogLocale: og('og:locale'),
    ogAlternates: og('og:locale:alternate'),
    ogUrl: og('og:url'),
    loading: doc.querySelector('#root')?.textContent,
    noscript: doc.querySelector('noscript')?.textContent,
  };
}

describe('the visitor language from a request', () => {
  it('takes the most wanted language the product speaks from Accept-Language', () => {
    expect(acceptedLocale('de')).toBe('de');
    expect(acceptedLocale('de-AT,de;q=0.9,en;q=0.8')).toBe('de');
    expect(acceptedLocale('fr-FR, es;q=0.8, de;q=0.5')).toBe('es');
    expect(acceptedLocale('en;q=0.2, ru;q=0.9')).toBe('ru');
    expect(acceptedLocale('de;q=0, es;q=0.1')).toBe('es');
    expect(acceptedLocale('fr, ja')).toBeNull();
    expect(acceptedLocale('*')).toBeNull();
    expect(acceptedLocale('')).toBeNull();
    expect(acceptedLocale(undefined)).toBeNull();
    expect(acceptedLocale('de;q=abc')).toBeNull();
  });

  it('reads a language value and refuses the rest', () => {
    expect(supportedLocale('ru')).toBe('ru');
    expect(supportedLocale('es-MX')).toBe('es');
    expect(supportedLocale('pseudo')).toBeNull();
    expect(supportedLocale('xx')).toBeNull();
    expect(supportedLocale(null)).toBeNull();
  });
});

describe('the titles are the web pages’ own messages, translated once', () => {
  const web = Object.fromEntries(
    ['en', ...LOCALES].map((locale) => [locale, parsePo(readFileSync(path.join(WEB_LOCALES_FOLDER, locale, 'messages.po'), 'utf8'))]),
  );
  const texts = [...Object.values(PAGE_MESSAGES), NOT_FOUND_MESSAGES].flatMap((m) => [m.title, m.description]).concat(DEFAULT_DESCRIPTION);

  it.each(texts)('"%s" is a message of the web catalogue, in every language', (text) => {
    // A page that renames its title or description must rename it here too, or this fails.
    expect(web.en!.has(text)).toBe(true);
    for (const locale of LOCALES.filter((l) => l !== 'en')) expect(web[locale]!.get(text), locale).toBeTruthy();
  });
});

describe.each(enginesFor('database'))('the page before JavaScript in the visitor language on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    ensureWebBuild();
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const page = async (route: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}${route}`, { headers });
    return { status: res.status, headers: res.headers, head: head(await res.text()) };
  };

  it('writes the home page in German for Accept-Language: de', async () => {
    const res = await page('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.head).toMatchObject({
      lang: 'de',
      title: 'Krypto-Guthaben, Tausch und Prämien · Olympus',
      ogTitle: ['Krypto-Guthaben, Tausch und Prämien · Olympus'],
      ogLocale: ['de_DE'],
      ogUrl: ['https://olympus.example/'],
      loading: 'Olympus wird geladen…',
      noscript: 'Olympus braucht JavaScript, um zu laufen.',
    });
    expect(res.head.ogAlternates.sort()).toEqual(['en_US', 'es_ES', 'ru_RU']);
    expect(res.head.description).toBe(res.head.ogDescription[0]);
    expect(res.head.description).not.toContain('Top up credits');
  });

  it('writes /login in Spanish for Accept-Language: es', async () => {
    const res = await page('/login', { 'accept-language': 'es' });
    expect(res.status).toBe(200);
    expect(res.head).toMatchObject({
      lang: 'es',
      title: 'Iniciar sesión · Olympus',
      ogTitle: ['Iniciar sesión · Olympus'],
      description: 'Inicia sesión en Olympus para ver tus créditos, recompensas de intercambio y tickets de soporte.',
      ogLocale: ['es_ES'],
      loading: 'Cargando Olympus…',
    });
  });

  it('follows the locale cookie (the choice made on this device) over Accept-Language', async () => {
    const res = await page('/status', { 'accept-language': 'de', cookie: 'theme=dark; locale=ru' });
    expect(res.status).toBe(200);
    expect(res.head).toMatchObject({ lang: 'ru', title: 'Статус · Olympus', ogTitle: ['Статус · Olympus'], ogLocale: ['ru_RU'] });
    // A sub-page of the status page (a mail's link) keeps the section's title.
    const link = await page('/status/confirm?token=abc', { cookie: 'locale=es' });
    expect(link.head).toMatchObject({ lang: 'es', title: 'Estado · Olympus', ogUrl: ['https://olympus.example/status/confirm'] });
  });

  it('writes a marketing page in the most wanted language it speaks; English with none', async () => {
    const spanish = await page('/privacy', { 'accept-language': 'fr-FR, es;q=0.8, de;q=0.5' });
    expect(spanish.head).toMatchObject({ lang: 'es', title: 'Política de privacidad · Olympus', ogLocale: ['es_ES'] });
    const english = await page('/privacy', { 'accept-language': 'fr-FR, ja' });
    expect(english.head).toMatchObject({
      lang: 'en',
      title: 'Privacy Policy · Olympus',
      ogTitle: ['Privacy Policy · Olympus'],
      description: 'What personal data Olympus collects, why, who we share it with and your rights.',
      ogLocale: ['en_US'],
      loading: 'Loading Olympus…',
      noscript: 'Olympus needs JavaScript to run.',
    });
    expect(english.head.ogAlternates.sort()).toEqual(['de_DE', 'es_ES', 'ru_RU']);
    // An unknown cookie value (the pseudo-locale of the tests) is no choice.
    expect((await page('/privacy', { cookie: 'locale=pseudo', 'accept-language': 'de' })).head.lang).toBe('de');
  });

  it('keeps the 404 of an unknown path, its title in the visitor language, with no page address', async () => {
    const res = await page('/no-such-page', { 'accept-language': 'de' });
    expect(res.status).toBe(404);
    expect(res.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
    expect(res.head).toMatchObject({
      lang: 'de',
      title: 'Seite nicht gefunden · Olympus',
      ogTitle: ['Seite nicht gefunden · Olympus'],
      ogLocale: ['de_DE'],
      ogUrl: [],
    });
    const spanish = await page('/login/extra', { cookie: 'locale=es' });
    expect(spanish.status).toBe(404);
    expect(spanish.head.title).toBe('Página no encontrada · Olympus');
  });

  it('gives a signed-in page the site name, in the visitor language', async () => {
    const res = await page('/dashboard', { 'accept-language': 'ru' });
    expect(res.status).toBe(200);
    expect(res.head).toMatchObject({ lang: 'ru', title: 'Olympus', ogLocale: ['ru_RU'] });
  });

  it('follows the signed-in account language (token cookie) unless this device chose one', async () => {
    const user = await registerUser(t);
    expect((await call(t, 'PUT', '/api/users/locale', { token: user.token, body: { locale: 'de' } })).status).toBe(200);
    const token = `token=${encodeURIComponent(user.token)}`;
    const account = await page('/login', { cookie: token, 'accept-language': 'es' });
    expect(account.head).toMatchObject({ lang: 'de', title: 'Anmelden · Olympus', ogLocale: ['de_DE'] });
    const device = await page('/login', { cookie: `${token}; locale=ru`, 'accept-language': 'es' });
    expect(device.head).toMatchObject({ lang: 'ru', title: 'Войти · Olympus' });
    // A token that is not a session, and a guest, read the page as anyone does.
    expect((await page('/login', { cookie: 'token=not-a-token', 'accept-language': 'es' })).head.lang).toBe('es');
    const guest = await startGuest(t);
    const asGuest = await page('/login', { cookie: `token=${encodeURIComponent(guest.token)}`, 'accept-language': 'es' });
    expect(asGuest.status).toBe(200);
    expect(asGuest.head.lang).toBe('es');
  });
});
