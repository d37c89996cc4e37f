/**
 * The web's formatters, in one place (docs/decisions/0225-web-writes-and-error-codes.md): credits and
 * money, dates and times, crypto amounts. Features import these rather than writing their own.
 */
import { plural, t } from '@lingui/core/macro';
import { formatCredits } from '#shared/fees';

// ---- Credits and money ------------------------------------------------------------------------------

/** Cents as credits or dollars with two decimals: 1250 → "12.50" (the server's formatting too). */
export { formatCredits };

/** Cents as a credit amount in words: 1250 → "12.50 credits". */
export const creditsText = (cents: number) => `${formatCredits(cents)} credits`;

/** An amount in whole units with two decimals and grouping: 0 → "0.00", 1234.567 → "1,234.57". */
export function formatAmount(amount: number): string {
  return (Number.isFinite(amount) ? amount : 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Credits with 2 decimals and no grouping (1 credit = 1 USD), as the exchange rewards are worded. */
export function formatCreditAmount(credits: number): string {
  return credits.toFixed(2);
}

/**
 * An ad's spend, kept in thousandths of a cent, as credits: 3 decimals, 5 when a sum is under a tenth
 * of a cent (one impression of a CPM campaign costs a fraction of a cent; two decimals would show 0.00).
 */
export function formatSpend(millicents: number): string {
  const credits = millicents / 100_000;
  return credits !== 0 && Math.abs(credits) < 0.001 ? credits.toFixed(5) : credits.toFixed(3);
}

/**
 * "$500", "$99.99", "$1,000". Plain string work rather than toLocaleString: the home page renders its
 * fee table in its first render, and a page's first Intl number format costs about 30 ms in desktop
 * Chromium while ICU loads its data (several times that on a slow phone).
 */
export function formatUsdLabel(value: number): string {
  const [whole = '', cents] = (Number.isInteger(value) ? String(value) : value.toFixed(2)).split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents ? `.${cents}` : ''}`;
}

// ---- Dates and times --------------------------------------------------------------------------------

/** A moment as a person reads it, in their own locale and time zone: "18 Nov 2026, 14:05". */
export function formatDateTime(at: string | number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A claim deadline (ms since epoch), read like any other moment. */
export const formatDeadline = (ms: number) => formatDateTime(ms);

/** A moment in the browser's default long form, or "—" when there is none (staff tables). */
export function formatWhen(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** "2026-11-18" → "18 November 2026", read as a calendar date (no time zone shift). */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "2026-11-18" → "18 Nov", a calendar date short enough for a chart's axis (no time zone shift). */
export function formatDayShort(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/** A quote's expiry as a clock time (HH:MM:SS, 24-hour, local time). */
export function formatClock(ms: number): string {
  return new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

/** Time left as m:ss. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

// ---- In the page's language (decision 0326) --------------------------------------------------------
// The formatters above keep the product's English forms, which pages and tests read today; these follow
// the language on screen and replace them as each page is translated.

/** The page's language as Intl reads it: `<html lang>`, which the language feature keeps up to date. */
export function pageLocale(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en';
}

// Building a formatter is the costly part (ICU loads its data); each is made once per language and shape.
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** Cents as credits with two decimals, grouped as the language groups: 123456 → "1,234.56", "1.234,56" (de). */
export function formatLocaleCredits(cents: number, locale = pageLocale()): string {
  const value = Number.isFinite(cents) ? cents / 100 : 0;
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/**
 * An amount of a fiat currency, given in its minor unit (cents for USD and EUR, yen for JPY), with the
 * currency's sign where the language puts it: (1999, 'EUR', 'de') → "19,99 €", (1999, 'USD', 'en') → "$19.99".
 */
export function formatLocaleMoney(minorUnits: number, currency: string, locale = pageLocale()): string {
  const format = numberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format((Number.isFinite(minorUnits) ? minorUnits : 0) / 10 ** digits);
}

const CRYPTO_AMOUNT = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A crypto amount as the exact decimal string the API sends, never rounded and never through a float:
 * the whole part grouped and the decimal sign as the language writes them, every fraction digit kept
 * ("1234.567890123456789" → "1.234,567890123456789" in German). Anything else is shown as it came.
 */
export function formatLocaleCrypto(amount: string, locale = pageLocale()): string {
  const match = CRYPTO_AMOUNT.exec(amount.trim());
  if (!match) return amount;
  const [, minus, whole = '0', fraction] = match;
  const parts = numberFormat(locale, { maximumFractionDigits: 1 }).formatToParts(-1.5);
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const minusSign = parts.find((part) => part.type === 'minusSign')?.value ?? '-';
  // BigInt keeps every digit of the whole part; Intl groups it exactly.
  const grouped = numberFormat(locale, { maximumFractionDigits: 0 }).format(BigInt(whole));
  return `${minus ? minusSign : ''}${grouped}${fraction ? `${decimal}${fraction}` : ''}`;
}

/**
 * A moment in the language and the person's time zone: "18 Nov 2026, 14:05", "18.11.2026, 14:05" (de);
 * with `seconds`, "18 Nov 2026, 14:05:09" (a log of attempts seconds apart).
 */
export function formatLocaleDateTime(
  at: string | number | Date,
  locale = pageLocale(),
  { seconds = false }: { seconds?: boolean } = {},
): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' }).format(new Date(at));
}

/** A calendar date ("2026-11-18") in the language, read without a time zone shift: "18 de noviembre de 2026" (es). */
export function formatLocaleDate(isoDate: string, locale = pageLocale()): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)),
  );
}

const RELATIVE_STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Infinity],
];

/**
 * How long ago or how soon, in the largest unit that fits, in the language: "3 minutes ago", "in 2 days",
 * "yesterday", "hace 3 minutos", "через 2 дня".
 */
export function formatRelativeTime(at: string | number | Date, now: number = Date.now(), locale = pageLocale()): string {
  let value = (new Date(at).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/**
 * A percentage (given out of 100) as the language writes it: "99.95%", "99,95 %" (de), "99,95 %" (es).
 * `fractionDigits` decimals always, or at most that many with `trimZeros` ("75%", "66.7%").
 */
export function formatLocalePercent(
  percent: number,
  fractionDigits: number,
  { trimZeros = false, locale = pageLocale() }: { trimZeros?: boolean; locale?: string } = {},
): string {
  const value = Number.isFinite(percent) ? percent / 100 : 0;
  return numberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: trimZeros ? 0 : fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** A plain figure with a fixed number of decimals, grouped as the language groups: a rating 4.5 → "4.50", "4,50" (de). */
export function formatLocaleNumber(value: number, fractionDigits: number, locale = pageLocale()): string {
  return numberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(
    Number.isFinite(value) ? value : 0,
  );
}

/**
 * Credits in whole units with two decimals and no grouping, as formatCreditAmount writes them in English
 * ("1000.00"), with the language's decimal sign: "1000,00" (de).
 */
export function formatLocaleCreditAmount(credits: number, locale = pageLocale()): string {
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(
    Number.isFinite(credits) ? credits : 0,
  );
}

/**
 * Cents as credits with two decimals and no grouping, as formatCredits writes them in English ("1000.00",
 * the staff console's figures), with the language's decimal sign: "1000,00" (de).
 */
export function formatLocaleCreditCents(cents: number, locale = pageLocale()): string {
  return formatLocaleCreditAmount(Number.isFinite(cents) ? cents / 100 : 0, locale);
}

/** A time of day in the language and the person's time zone, with seconds: "15:04:05", "3:04:05 PM" (en-US). */
export function formatLocaleTime(at: string | number | Date, locale = pageLocale()): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }).format(new Date(at));
}

/**
 * A file's size in the language: "512 bytes", "12.3 KB", "4.5 MB"; "12,3 KB" (de), "12,3 КБ" (ru). One
 * decimal from a kilobyte (1024 bytes) up.
 */
export function formatLocaleSize(bytes: number, locale = pageLocale()): string {
  if (bytes < 1024) {
    const count = numberFormat(locale, { maximumFractionDigits: 0 }).format(bytes);
    return plural(bytes, { one: `${count} byte`, other: `${count} bytes` });
  }
  const megabytes = bytes >= 1024 * 1024;
  const size = numberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    megabytes ? bytes / (1024 * 1024) : bytes / 1024,
  );
  return megabytes ? t`${size} MB` : t`${size} KB`;
}
