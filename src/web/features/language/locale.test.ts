import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '#web/lib/storage';
import {
  activateLocale,
  currentLocale,
  detectLocale,
  initialLocale,
  matchBrowserLanguage,
  readStoredLocale,
  storeLocale,
  textDirection,
} from './locale';

afterEach(async () => {
  localStorage.clear();
  await activateLocale('en');
});

describe('which language a visit starts in (decision 0326)', () => {
  it("takes the device's choice first, then the account's, then the browser's, then English", () => {
    expect(detectLocale({ stored: 'de', account: 'es', languages: ['ru'] })).toBe('de');
    expect(detectLocale({ stored: null, account: 'es', languages: ['ru'] })).toBe('es');
    expect(detectLocale({ stored: null, account: null, languages: ['ru-RU', 'en'] })).toBe('ru');
    expect(detectLocale({ languages: ['fr-FR', 'ja'] })).toBe('en');
    expect(detectLocale({})).toBe('en');
  });

  it('ignores what it does not know, and keeps the pseudo-locale to the device', () => {
    expect(detectLocale({ stored: 'fr', account: 'xx', languages: ['de-AT'] })).toBe('de');
    expect(detectLocale({ stored: 'pseudo' })).toBe('pseudo');
    expect(detectLocale({ account: 'pseudo', languages: [] })).toBe('en');
  });

  it("reads a browser's regional tags by their language, in the browser's order", () => {
    expect(matchBrowserLanguage(['es-MX'])).toBe('es');
    expect(matchBrowserLanguage(['pt-BR', 'DE_ch', 'es'])).toBe('de');
    expect(matchBrowserLanguage(['fr'])).toBeNull();
  });

  it('remembers the choice in local storage under `locale`, which signing out keeps', () => {
    expect(readStoredLocale()).toBeNull();
    storeLocale('ru');
    expect(localStorage.getItem('locale')).toBe('ru');
    expect(readStoredLocale()).toBe('ru');
    expect(initialLocale()).toBe('ru');
    localStorage.setItem('theme', 'light');
    storage.clearAll();
    expect(localStorage.getItem('theme')).toBeNull();
    expect(readStoredLocale()).toBe('ru');
    localStorage.setItem('locale', 'klingon');
    expect(readStoredLocale()).toBeNull();
  });
});

describe('activating a language', () => {
  it('lets the later of two quick choices win, whichever catalogue arrives first', async () => {
    // German's catalogue is not loaded yet (this runs first): English is chosen while it is on its way.
    const first = activateLocale('de');
    const second = activateLocale('en');
    await Promise.all([first, second]);
    expect(i18n.locale).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('starts in English, with <html lang> following each language it loads', async () => {
    expect(currentLocale()).toBe('en');
    expect(t`Language`).toBe('Language');

    await activateLocale('es');
    expect(currentLocale()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(t`Language`).toBe('Idioma');

    await activateLocale('ru');
    expect(t`Language`).toBe('Язык');
    await activateLocale('de');
    expect(t`Language`).toBe('Sprache');
    expect(document.documentElement.lang).toBe('de');

    await activateLocale('en');
    expect(document.documentElement.lang).toBe('en');
    expect(t`Language`).toBe('Language');
  });

  it('shows the pseudo-locale accented and longer, under the en-XA tag', async () => {
    await activateLocale('pseudo');
    expect(document.documentElement.lang).toBe('en-XA');
    const text = t`Language`;
    expect(text).toMatch(/^\[Ļàñĝûàĝé ·+\]$/);
    expect(text.length).toBeGreaterThanOrEqual(Math.ceil('Language'.length * 1.4));
    // Placeholders still take their values.
    const year = 2026;
    expect(t`© ${year} Olympus. Credits are not a bank deposit or an investment.`).toContain('© 2026 Öļýɱþûš.');
  });
});

describe('text direction', () => {
  it('is right to left for the languages written so, with or without a region, and left to right otherwise', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('he-IL')).toBe('rtl');
    expect(textDirection('fa_IR')).toBe('rtl');
    for (const tag of ['en', 'es', 'ru', 'de', 'en-XA']) expect(textDirection(tag)).toBe('ltr');
  });

  it('is set on <html> with the language', async () => {
    await activateLocale('de');
    expect(document.documentElement.dir).toBe('ltr');
    await activateLocale('en');
  });
});
