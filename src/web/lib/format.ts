/**
 * The web's formatters, in one place (docs/decisions/0225-web-writes-and-error-codes.md): credits and
 * money, dates and times, crypto amounts. Features import these rather than writing their own.
 */
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

// ---- Other figures ----------------------------------------------------------------------------------

/** An average rating out of 5, with two decimals: 4.25. */
export const formatRating = (value: number) => value.toFixed(2);

/** An uptime percentage: two decimals, none for a whole 100 ("99.95%", "100%"). */
export const formatUptime = (percent: number) => `${percent.toFixed(percent === 100 ? 0 : 2)}%`;

// ---- Crypto amounts ---------------------------------------------------------------------------------

/** A pair's limits as shown before an amount is typed: "Min 0.001 BTC · Max 2 BTC". */
export function formatLimits(min: string, max: string | null, ticker: string): string {
  const t = ticker.toUpperCase();
  return max === null ? `Min ${min} ${t}` : `Min ${min} ${t} · Max ${max} ${t}`;
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
