/**
 * The language of the page (decision 0326): which one to show, loading its catalogue, and `<html lang>`.
 * Kept in the entry (the header uses it): English is in the code itself, every other language is a chunk
 * of its own, loaded when it is chosen.
 */
import { i18n, type Messages } from '@lingui/core';
import { useSyncExternalStore } from 'react';
import { LOCALES, STORAGE_KEYS, TOKEN_COOKIE, type Locale } from '#shared/constants';

/** The product's languages and the pseudo-locale (accented, longer English) that tests use. */
export type UiLocale = Locale | 'pseudo';
export const UI_LOCALES: readonly UiLocale[] = [...LOCALES, 'pseudo'];

/** Each language in its own words, as the switch lists it. */
export const LOCALE_NAMES: Record<UiLocale, string> = {
  en: 'English',
  es: 'Español',
  ru: 'Русский',
  de: 'Deutsch',
  pseudo: 'Ƥšéûðö',
};

const CATALOGUES: Record<Exclude<UiLocale, 'en'>, () => Promise<{ messages: Messages }>> = {
  es: () => import('#web/locales/es/messages.po'),
  ru: () => import('#web/locales/ru/messages.po'),
  de: () => import('#web/locales/de/messages.po'),
  pseudo: () => import('#web/locales/pseudo/messages.po'),
};

// English is there from the first render, before anything is detected (and in tests). It needs no
// catalogue: the build leaves every message's English text in the code, compiled (decision 0329).
i18n.load('en', {});
i18n.activate('en');

export function isUiLocale(value: unknown): value is UiLocale {
  return typeof value === 'string' && (UI_LOCALES as readonly string[]).includes(value);
}

/** The BCP 47 tag for `<html lang>` and Intl: the pseudo-locale is the conventional en-XA. */
export function languageTag(locale: UiLocale): string {
  return locale === 'pseudo' ? 'en-XA' : locale;
}

/** Languages written right to left, should one be added: the page mirrors (its CSS uses logical sides). */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);

/** 'rtl' for a language written right to left, else 'ltr'. */
export function textDirection(tag: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(tag.toLowerCase().split(/[-_]/)[0]!) ? 'rtl' : 'ltr';
}

/** The first of the browser's languages the product speaks ('es-MX' is Spanish); null when none. */
export function matchBrowserLanguage(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    const match = LOCALES.find((locale) => locale === primary);
    if (match) return match;
  }
  return null;
}

/** Which language to show: the visitor's stored choice, else the account's, else the browser's, else English. */
export function detectLocale(sources: { stored?: string | null; account?: string | null; languages?: readonly string[] }): UiLocale {
  if (isUiLocale(sources.stored)) return sources.stored;
  if (isUiLocale(sources.account) && sources.account !== 'pseudo') return sources.account;
  return matchBrowserLanguage(sources.languages ?? []) ?? 'en';
}

// Local storage can throw (private mode, disabled storage); the choice then lasts for this page only.
export function readStoredLocale(): UiLocale | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEYS.locale);
    return isUiLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLocale(locale: UiLocale): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.locale, locale);
  } catch {
    // Storage unavailable.
  }
  writeLocaleCookie(locale);
}

/** A year: the choice lasts as long as local storage keeps it. */
const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The device's choice as the `locale` cookie too, so the server writes the page's first HTML (its
 * `<html lang>`, title and link preview) in the language the app will show (decision 0331).
 */
export function writeLocaleCookie(locale: UiLocale): void {
  try {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${STORAGE_KEYS.locale}=${locale}; Path=${TOKEN_COOKIE.path}; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; SameSite=${TOKEN_COOKIE.sameSite}${secure}`;
  } catch {
    // Cookies unavailable: the server falls back to the account's or the browser's language.
  }
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The language to start in, before the session is known. A choice stored before the cookie existed gets it now. */
export function initialLocale(): UiLocale {
  const stored = readStoredLocale();
  if (stored && !document.cookie.split(';').some((part) => part.trim() === `${STORAGE_KEYS.locale}=${stored}`)) writeLocaleCookie(stored);
  return detectLocale({ stored, languages: browserLanguages() });
}

let requested: UiLocale = 'en';
const loaded = new Set<UiLocale>(['en']);

/**
 * Loads the language's catalogue (once) and makes it the page's. When two are asked for in quick
 * succession the later wins, whichever catalogue arrives first.
 */
export async function activateLocale(locale: UiLocale): Promise<void> {
  requested = locale;
  if (locale !== 'en' && !loaded.has(locale)) {
    const { messages } = await CATALOGUES[locale]();
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  if (requested !== locale) return;
  if (i18n.locale !== locale) i18n.activate(locale);
  document.documentElement.lang = languageTag(locale);
  document.documentElement.dir = textDirection(languageTag(locale));
}

export function currentLocale(): UiLocale {
  return isUiLocale(i18n.locale) ? i18n.locale : 'en';
}

function subscribe(listener: () => void): () => void {
  return i18n.on('change', listener);
}

/** The active language; a component that calls it renders again when the language changes. */
export function useLocale(): UiLocale {
  return useSyncExternalStore(subscribe, currentLocale, () => 'en');
}
