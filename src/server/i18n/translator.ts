import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, type Locale } from '#shared/constants.js';
import { formatMessage, type MessageValues } from './message-format.js';
import { parsePo } from './po.js';

/**
 * What the server writes to a person, in that person's language (docs/decisions/0328). A message is
 * written where it is used as its English text marked for Lingui's extractor, `tr.t(/*i18n*\/ 'Hello
 * {name}', { name })`; `npm run i18n:extract` collects them into src/server/locales/<locale>/messages.po,
 * read here once per language, the first time it is asked for. A message a catalogue lacks is English.
 */

/** The catalogues beside the sources; from dist/server/i18n/ the same path leads back to src/ (as migrate.ts). */
export const LOCALES_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/server/locales');

/** The `{name}` placeholders of a message written inline, so that a missing value is a type error. */
type Placeholders<S extends string> = S extends `${string}{${infer Inside}}${infer Rest}`
  ? (Inside extends `${infer Name},${string}` ? Name : Inside extends `#${string}` ? never : Inside) | Placeholders<Rest>
  : never;
type ValuesFor<S extends string> = string extends S ? MessageValues : Record<Placeholders<S> & string, string | number>;

export interface Translator {
  readonly locale: Locale;
  /** The message in this language, placeholders filled in. */
  t<S extends string>(message: S, ...values: Placeholders<S> extends never ? [] : [ValuesFor<S>]): string;
  /** An amount in cents as a number with two decimals: "1234.50" in English (as always), "1.234,50" in German. */
  cents(cents: number): string;
  /** A crypto amount, kept exact: the string's digits with the language's decimal sign, never through a float. */
  crypto(amount: string): string;
  /** A moment as this language writes it, in UTC: English keeps `Date.toUTCString()`. */
  dateTime(date: Date): string;
  /** A calendar day as this language writes it (UTC). English keeps the ISO form, 2026-12-07. */
  date(date: Date): string;
}

const catalogues = new Map<Locale, Map<string, string>>();

function catalogue(locale: Locale): Map<string, string> {
  let messages = catalogues.get(locale);
  if (!messages) {
    try {
      messages = parsePo(readFileSync(path.join(LOCALES_FOLDER, locale, 'messages.po'), 'utf8'));
    } catch {
      // No catalogue (a build without the locales folder): English, which is the message itself.
      messages = new Map();
    }
    catalogues.set(locale, messages);
  }
  return messages;
}

/** `users.locale` (null, or anything unknown, is English) as one of LOCALES. */
export function localeOf(value: string | null | undefined): Locale {
  return (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en';
}

const translators = new Map<Locale, Translator>();

/** The translator of one language; `users.locale` may be passed as it is (null is English). */
export function translatorFor(value: string | null | undefined): Translator {
  const locale = localeOf(value);
  let translator = translators.get(locale);
  if (!translator) {
    translator = makeTranslator(locale);
    translators.set(locale, translator);
  }
  return translator;
}

/** English, for text with no reader yet (a guest) or whose reader has not chosen a language. */
export const english: Translator = translatorFor('en');

function makeTranslator(locale: Locale): Translator {
  const messages = locale === 'en' ? null : catalogue(locale);
  const decimals = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const separators = new Intl.NumberFormat(locale).formatToParts(1234.5);
  const group = separators.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = separators.find((p) => p.type === 'decimal')?.value ?? '.';
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    locale,
    t(message: string, ...values: [MessageValues?]) {
      return formatMessage(locale, messages?.get(message) ?? message, values[0]);
    },
    cents(cents) {
      return locale === 'en' ? (cents / 100).toFixed(2) : decimals.format(cents / 100);
    },
    crypto(amount) {
      if (locale === 'en') return amount;
      const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
      if (!match) return amount;
      const whole = match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
      return `${match[1]}${whole}${match[3] ? `${decimal}${match[3]}` : ''}`;
    },
    dateTime(date) {
      return locale === 'en' ? date.toUTCString() : `${dateTime.format(date)} UTC`;
    },
    date(date) {
      return locale === 'en' ? date.toISOString().slice(0, 10) : day.format(date);
    },
  } as Translator;
}
