/**
 * Business-hours arithmetic for support targets (docs/decisions/0292). A calendar is a time zone,
 * the working days of the week, one daily window and a list of holidays, all read in that zone, so a
 * daylight-saving change moves the window with the clock on the wall, as people expect.
 *
 * Pure functions: no database, no clock. Everything else in support (SLA targets, "no reply for N
 * business hours" rules, reports) counts time through these two.
 */
export interface BusinessCalendar {
  /** An IANA zone, e.g. "Europe/Berlin". */
  timeZone: string;
  /** ISO weekdays that are worked: 1 = Monday … 7 = Sunday. */
  days: readonly number[];
  /** The daily window in minutes after local midnight, start inclusive, end exclusive (0 < end ≤ 1440). */
  startMinute: number;
  endMinute: number;
  /** Local dates that are not worked, as YYYY-MM-DD. */
  holidays: readonly string[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** No calendar leaves ten years without one working day; past that, a target is never reached. */
const MAX_DAYS = 3660;

export function isValidCalendar(cal: BusinessCalendar): boolean {
  return (
    cal.days.length > 0 &&
    cal.days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) &&
    Number.isInteger(cal.startMinute) &&
    Number.isInteger(cal.endMinute) &&
    cal.startMinute >= 0 &&
    cal.endMinute <= 1440 &&
    cal.startMinute < cal.endMinute &&
    isKnownZone(cal.timeZone)
  );
}

export function isKnownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, instant: number): { y: number; m: number; d: number; h: number; min: number; s: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(instant))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { y: out.year!, m: out.month!, d: out.day!, h: out.hour! % 24, min: out.minute!, s: out.second! };
}

/** The zone's offset from UTC at an instant, in ms (Berlin in winter: +3,600,000). */
function offsetAt(timeZone: string, instant: number): number {
  const p = partsIn(timeZone, instant);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which the wall clock in the zone shows `minute` minutes after midnight of a local date. */
function localToInstant(timeZone: string, y: number, m: number, d: number, minute: number): number {
  const guess = Date.UTC(y, m - 1, d, 0, minute);
  const first = guess - offsetAt(timeZone, guess);
  const second = guess - offsetAt(timeZone, first);
  return second;
}

function isoDate(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The working windows [start, end) of each local day, from the local day that holds `from` onwards. */
function* windowsFrom(cal: BusinessCalendar, from: number): Generator<[number, number]> {
  const first = partsIn(cal.timeZone, from);
  const holidays = new Set(cal.holidays);
  const days = new Set(cal.days);
  // Walk calendar dates with a UTC date as a counter; only y/m/d are read from it.
  let counter = Date.UTC(first.y, first.m - 1, first.d);
  for (let i = 0; i < MAX_DAYS; i++, counter += DAY) {
    const c = new Date(counter);
    const y = c.getUTCFullYear();
    const m = c.getUTCMonth() + 1;
    const d = c.getUTCDate();
    const weekday = c.getUTCDay() === 0 ? 7 : c.getUTCDay();
    if (!days.has(weekday) || holidays.has(isoDate(y, m, d))) continue;
    const start = localToInstant(cal.timeZone, y, m, d, cal.startMinute);
    const end = localToInstant(cal.timeZone, y, m, d, cal.endMinute);
    if (end > start) yield [start, end];
  }
}

/** Business time between two instants, in ms (0 when `to` is not after `from`). */
export function businessMsBetween(cal: BusinessCalendar, from: Date, to: Date): number {
  const a = from.getTime();
  const b = to.getTime();
  if (b <= a) return 0;
  let total = 0;
  for (const [start, end] of windowsFrom(cal, a)) {
    if (start >= b) break;
    const s = Math.max(start, a);
    const e = Math.min(end, b);
    if (e > s) total += e - s;
  }
  return total;
}

/**
 * The instant at which `ms` of business time have passed since `from`. A zero amount outside the
 * window answers `from` itself. Null when the calendar has no working time left within ten years.
 */
export function addBusinessMs(cal: BusinessCalendar, from: Date, ms: number): Date | null {
  const a = from.getTime();
  if (ms <= 0) return new Date(a);
  let left = ms;
  for (const [start, end] of windowsFrom(cal, a)) {
    const s = Math.max(start, a);
    if (end <= s) continue;
    if (end - s >= left) return new Date(s + left);
    left -= end - s;
  }
  return null;
}

/** Monday to Friday, 09:00–17:00 UTC, no holidays: what a new installation starts with. */
export const DEFAULT_BUSINESS_CALENDAR: BusinessCalendar = {
  timeZone: 'UTC',
  days: [1, 2, 3, 4, 5],
  startMinute: 9 * 60,
  endMinute: 17 * 60,
  holidays: [],
};
