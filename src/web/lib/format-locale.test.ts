import { afterEach, describe, expect, it } from 'vitest';
// The size formatter's units are messages: the language module activates the catalogue on import.
import '#web/features/language';
import {
  formatLocaleCredits,
  formatLocaleCrypto,
  formatLocaleDate,
  formatLocaleDateTime,
  formatLocaleMoney,
  formatLocaleCreditAmount,
  formatLocaleCreditCents,
  formatLocaleNumber,
  formatLocalePercent,
  formatLocaleSize,
  formatLocaleTime,
  formatRelativeTime,
  pageLocale,
} from './format';

// Intl separates groups with no-break spaces in some languages (ru); the tests read them as spaces.
const plain = (text: string) => text.replace(/\s/g, ' ');

afterEach(() => {
  document.documentElement.lang = '';
});

describe('formatters in the page language (decision 0326)', () => {
  it('follow <html lang>, English when it is empty', () => {
    expect(pageLocale()).toBe('en');
    expect(formatLocaleCredits(123456)).toBe('1,234.56');
    document.documentElement.lang = 'de';
    expect(pageLocale()).toBe('de');
    expect(formatLocaleCredits(123456)).toBe('1.234,56');
  });

  it('write credits with two decimals, grouped as each language groups them', () => {
    expect(formatLocaleCredits(123456789, 'en')).toBe('1,234,567.89');
    expect(formatLocaleCredits(123456789, 'es')).toBe('1.234.567,89');
    expect(plain(formatLocaleCredits(123456789, 'ru'))).toBe('1 234 567,89');
    expect(formatLocaleCredits(123456789, 'de')).toBe('1.234.567,89');
    expect(formatLocaleCredits(5, 'de')).toBe('0,05');
    expect(formatLocaleCredits(Number.NaN, 'en')).toBe('0.00');
  });

  it('write fiat money from its minor unit with the currency where the language puts it', () => {
    expect(formatLocaleMoney(199999, 'USD', 'en')).toBe('$1,999.99');
    expect(plain(formatLocaleMoney(199999, 'EUR', 'de'))).toBe('1.999,99 €');
    expect(plain(formatLocaleMoney(199999, 'EUR', 'ru'))).toBe('1 999,99 €');
    expect(plain(formatLocaleMoney(199999, 'EUR', 'es'))).toBe('1999,99 €');
    // A currency without a minor unit: 1999 yen are 1999 yen, not 19.99.
    expect(formatLocaleMoney(1999, 'JPY', 'en')).toBe('¥1,999');
  });

  it('write crypto amounts exactly: every digit kept, never rounded, grouped and marked by the language', () => {
    const amount = '12345678901234567890.000000000000000001';
    expect(formatLocaleCrypto(amount, 'en')).toBe('12,345,678,901,234,567,890.000000000000000001');
    expect(formatLocaleCrypto(amount, 'de')).toBe('12.345.678.901.234.567.890,000000000000000001');
    expect(plain(formatLocaleCrypto(amount, 'ru'))).toBe('12 345 678 901 234 567 890,000000000000000001');
    expect(formatLocaleCrypto('0.10000000', 'es')).toBe('0,10000000');
    expect(formatLocaleCrypto('-1234.5', 'en')).toBe('-1,234.5');
    expect(formatLocaleCrypto('42', 'de')).toBe('42');
    // Not a plain decimal: shown as it came rather than guessed at.
    expect(formatLocaleCrypto('1e-8', 'de')).toBe('1e-8');
    expect(formatLocaleCrypto('abc', 'en')).toBe('abc');
  });

  it('write dates and moments in the language', () => {
    expect(formatLocaleDate('2026-11-18', 'en')).toBe('November 18, 2026');
    expect(formatLocaleDate('2026-11-18', 'es')).toBe('18 de noviembre de 2026');
    expect(formatLocaleDate('2026-11-18', 'ru')).toBe('18 ноября 2026 г.');
    expect(formatLocaleDate('2026-11-18', 'de')).toBe('18. November 2026');
    // Noon UTC is 18 November in every time zone the test may run in.
    expect(formatLocaleDateTime('2026-11-18T12:00:00Z', 'de')).toMatch(/^18\.11\.2026, \d\d:\d\d$/);
    expect(formatLocaleDateTime('2026-11-18T12:00:00Z', 'es')).toMatch(/^18 nov 2026, \d\d:\d\d$/);
  });

  it('write relative times in the largest unit that fits, in words where the language has them', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(formatRelativeTime(now - 3 * 60_000, now, 'en')).toBe('3 minutes ago');
    expect(formatRelativeTime(now - 3 * 60_000, now, 'es')).toBe('hace 3 minutos');
    expect(formatRelativeTime(now - 3 * 60_000, now, 'ru')).toBe('3 минуты назад');
    expect(formatRelativeTime(now - 3 * 60_000, now, 'de')).toBe('vor 3 Minuten');
    expect(formatRelativeTime(now + 5 * 3_600_000, now, 'en')).toBe('in 5 hours');
    expect(formatRelativeTime(now - 86_400_000, now, 'de')).toBe('gestern');
    expect(formatRelativeTime(now + 3 * 86_400_000, now, 'en')).toBe('in 3 days');
    expect(formatRelativeTime(now - 400 * 86_400_000, now, 'en')).toBe('last year');
    expect(formatRelativeTime(new Date(now + 10_000), now, 'en')).toBe('in 10 seconds');
  });

  it('write percentages with fixed or at most so many decimals, the sign where the language puts it', () => {
    expect(formatLocalePercent(99.954, 2, { locale: 'en' })).toBe('99.95%');
    expect(formatLocalePercent(99, 2, { locale: 'en' })).toBe('99.00%');
    expect(formatLocalePercent(100, 0, { locale: 'en' })).toBe('100%');
    expect(formatLocalePercent(75, 1, { trimZeros: true, locale: 'en' })).toBe('75%');
    expect(formatLocalePercent(66.666, 1, { trimZeros: true, locale: 'en' })).toBe('66.7%');
    expect(plain(formatLocalePercent(99.954, 2, { locale: 'de' }))).toBe('99,95 %');
    expect(plain(formatLocalePercent(66.666, 1, { trimZeros: true, locale: 'es' }))).toBe('66,7 %');
    expect(plain(formatLocalePercent(99.954, 2, { locale: 'ru' }))).toBe('99,95 %');
  });

  it('write ratings and ungrouped credit amounts with the language’s decimal sign', () => {
    expect(formatLocaleNumber(4.256, 2, 'en')).toBe('4.26');
    expect(formatLocaleNumber(4.5, 2, 'de')).toBe('4,50');
    expect(formatLocaleCreditAmount(1000, 'en')).toBe('1000.00');
    expect(formatLocaleCreditAmount(1000, 'de')).toBe('1000,00');
    expect(formatLocaleCreditAmount(0.125, 'en')).toBe('0.13');
    expect(formatLocaleCreditCents(100000, 'en')).toBe('1000.00');
    expect(formatLocaleCreditCents(9700, 'de')).toBe('97,00');
    expect(formatLocaleCreditCents(-1250, 'es')).toBe('-12,50');
  });

  it('write times of day and moments to the second', () => {
    // Noon UTC: the hour depends on the test's time zone, the shape does not.
    expect(formatLocaleTime('2026-11-18T12:04:05Z', 'de')).toMatch(/^\d\d:\d\d:05$/);
    expect(formatLocaleTime('2026-11-18T12:04:05Z', 'en')).toMatch(/^\d{1,2}:\d\d:05\s[AP]M$/);
    expect(formatLocaleDateTime('2026-11-18T12:04:05Z', 'de', { seconds: true })).toMatch(/^18\.11\.2026, \d\d:\d\d:05$/);
  });

  it('write file sizes in bytes, KB and MB with one decimal and the language’s decimal sign', () => {
    expect(formatLocaleSize(512, 'en')).toBe('512 bytes');
    expect(formatLocaleSize(12_595, 'en')).toBe('12.3 KB');
    expect(formatLocaleSize(12_595, 'de')).toBe('12,3 KB');
    expect(formatLocaleSize(4.5 * 1024 * 1024, 'en')).toBe('4.5 MB');
  });
});

// The staff console's components: a figure there goes through a formatter of the page's language.
const staffSources = import.meta.glob<string>(
  [
    '../features/admin/**/*.{ts,tsx}',
    '../features/account-closure/components/pending-closures-panel.tsx',
    '../features/support-reports/**/*.{ts,tsx}',
    '../features/support-sla/**/*.{ts,tsx}',
    '../features/support-rules/**/*.{ts,tsx}',
    '../features/tickets/components/staff-*.tsx',
    '../features/tickets/components/requester-context-panel.tsx',
    '../features/ads/components/staff-*.tsx',
    '!../features/**/*.test.{ts,tsx}',
  ],
  { eager: true, query: '?raw', import: 'default' },
);

describe("the staff console's figures", () => {
  it('are written as the language writes them: no English-only formatter, toFixed or bare toLocaleString', () => {
    expect(Object.keys(staffSources).length).toBeGreaterThan(15);
    const raw =
      /\bformatCredits\(|\.toFixed\(|\bformatCreditAmount\(|\bformatAmount\(|\bcreditsText\(|\bformatWhen\(|\bformatDateTime\(|toLocaleString\(\)/;
    const found = Object.entries(staffSources)
      .flatMap(([file, source]) => source.split('\n').map((line, i) => [file, i + 1, line] as const))
      .filter(([, , line]) => raw.test(line) && !/^\s*(\/\/|\*)/.test(line))
      .map(([file, n, line]) => `${file}:${n}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});
