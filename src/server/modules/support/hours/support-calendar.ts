import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { DEFAULT_BUSINESS_CALENDAR, type BusinessCalendar } from './business-hours.js';
import { supportCalendar, supportHolidays, supportSlaTargets } from './support-calendar.tables.js';

/** Business minutes per priority; null where that priority has no target. */
export interface SlaTarget {
  priority: string;
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
}

/** The desk's calendar with its holidays, as the arithmetic of business-hours.ts reads it. */
export async function loadBusinessCalendar(db: DbOrTx): Promise<BusinessCalendar> {
  const [row] = await db.select().from(supportCalendar).where(eq(supportCalendar.id, 1));
  const holidays = await db.select({ day: supportHolidays.day }).from(supportHolidays).orderBy(asc(supportHolidays.day));
  if (!row) return { ...DEFAULT_BUSINESS_CALENDAR, holidays: holidays.map((h) => h.day) };
  return {
    timeZone: row.timeZone,
    days: row.days,
    startMinute: row.startMinute,
    endMinute: row.endMinute,
    holidays: holidays.map((h) => h.day),
  };
}

export async function loadSlaTargets(db: DbOrTx): Promise<Map<string, SlaTarget>> {
  const rows = await db.select().from(supportSlaTargets);
  return new Map(
    rows.map((r) => [
      r.priority,
      { priority: r.priority, firstResponseMinutes: r.firstResponseMinutes, resolutionMinutes: r.resolutionMinutes },
    ]),
  );
}
