import { asc, eq, sql } from 'drizzle-orm';
import {
  SLA_PRIORITIES,
  slaHolidaySchema,
  hhmmOf,
  minutesOfDay,
  type SlaCalendarBody,
  type SlaHoliday,
  type SlaSettingsResponse,
  type SlaTargetsBody,
} from '#shared/schemas/support-sla.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { conflict, notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { isValidCalendar } from '../hours/business-hours.js';
import { supportCalendar, supportHolidays, supportSlaTargets } from '../hours/support-calendar.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';

/** Urgent first, as the targets table reads. */
const PRIORITY_ORDER = [...SLA_PRIORITIES].reverse();

async function actor(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const user = await findUserById(db, userId);
  return { id: userId, username: user?.username ?? 'unknown' };
}

/**
 * The desk's business hours, holidays and SLA targets as admins edit them (docs/decisions/0293). All
 * staff read them; each change is written with its audit entry (before and after) in one transaction.
 */
export class SupportSlaService {
  constructor(private readonly deps: { db: Db }) {}

  async settings(db: DbOrTx = this.deps.db): Promise<SlaSettingsResponse> {
    const [cal] = await db.select().from(supportCalendar).where(eq(supportCalendar.id, 1));
    const holidays = await db
      .select({ day: supportHolidays.day, name: supportHolidays.name })
      .from(supportHolidays)
      .orderBy(asc(supportHolidays.day));
    const rows = await db.select().from(supportSlaTargets);
    const targets = PRIORITY_ORDER.map((priority) => {
      const row = rows.find((r) => r.priority === priority);
      return { priority, firstResponseMinutes: row?.firstResponseMinutes ?? null, resolutionMinutes: row?.resolutionMinutes ?? null };
    });
    return {
      calendar: {
        timeZone: cal?.timeZone ?? 'UTC',
        days: [...(cal?.days ?? [1, 2, 3, 4, 5])].sort((a, b) => a - b),
        start: hhmmOf(cal?.startMinute ?? 540),
        end: hhmmOf(cal?.endMinute ?? 1020),
        updatedAt: (cal?.updatedAt ?? new Date()).toISOString(),
      },
      holidays,
      targets,
    };
  }

  async saveCalendar(adminId: string, body: SlaCalendarBody): Promise<SlaSettingsResponse> {
    const startMinute = minutesOfDay(body.start);
    const endMinute = minutesOfDay(body.end);
    const days = [...new Set(body.days)].sort((a, b) => a - b);
    // The schema checks each field; the arithmetic's own check is the last word (no working time: refused).
    if (!isValidCalendar({ timeZone: body.timeZone, days, startMinute, endMinute, holidays: [] })) {
      throw unprocessable('This calendar has no working time');
    }
    return this.deps.db.transaction(async (tx) => {
      const before = (await this.settings(tx)).calendar;
      await tx
        .insert(supportCalendar)
        .values({ id: 1, timeZone: body.timeZone, days, startMinute, endMinute, updatedBy: adminId })
        .onConflictDoUpdate({
          target: supportCalendar.id,
          set: { timeZone: body.timeZone, days, startMinute, endMinute, updatedBy: adminId, updatedAt: sql`now()` },
        });
      const after = { timeZone: body.timeZone, days, start: body.start, end: body.end };
      await recordAudit(tx, {
        actor: await actor(tx, adminId),
        action: 'support.calendar_saved',
        targetType: 'support_calendar',
        targetId: '1',
        before: { timeZone: before.timeZone, days: before.days, start: before.start, end: before.end },
        after,
      });
      return this.settings(tx);
    });
  }

  async addHoliday(adminId: string, body: SlaHoliday): Promise<SlaSettingsResponse> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(supportHolidays).values({ day: body.day, name: body.name }).onConflictDoNothing().returning();
      if (!row) throw conflict(`${body.day} is already a holiday`, { day: body.day });
      await recordAudit(tx, {
        actor: await actor(tx, adminId),
        action: 'support.holiday_added',
        targetType: 'support_holiday',
        targetId: body.day,
        after: { day: body.day, name: body.name },
      });
      return this.settings(tx);
    });
  }

  async removeHoliday(adminId: string, day: string): Promise<SlaSettingsResponse> {
    if (!slaHolidaySchema.shape.day.safeParse(day).success) throw notFound('No holiday on that date');
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(supportHolidays).where(eq(supportHolidays.day, day)).returning();
      if (!row) throw notFound('No holiday on that date');
      await recordAudit(tx, {
        actor: await actor(tx, adminId),
        action: 'support.holiday_removed',
        targetType: 'support_holiday',
        targetId: day,
        before: { day: row.day, name: row.name },
      });
      return this.settings(tx);
    });
  }

  /** Saves the targets of the priorities given (the others stay as they are). */
  async saveTargets(adminId: string, body: SlaTargetsBody): Promise<SlaSettingsResponse> {
    return this.deps.db.transaction(async (tx) => {
      const before = (await this.settings(tx)).targets;
      for (const t of body.targets) {
        await tx
          .insert(supportSlaTargets)
          .values({ priority: t.priority, firstResponseMinutes: t.firstResponseMinutes, resolutionMinutes: t.resolutionMinutes })
          .onConflictDoUpdate({
            target: supportSlaTargets.priority,
            set: { firstResponseMinutes: t.firstResponseMinutes, resolutionMinutes: t.resolutionMinutes, updatedAt: sql`now()` },
          });
      }
      const result = await this.settings(tx);
      await recordAudit(tx, {
        actor: await actor(tx, adminId),
        action: 'support.sla_targets_saved',
        targetType: 'support_sla_targets',
        targetId: 'all',
        before: { targets: before },
        after: { targets: result.targets },
      });
      return result;
    });
  }
}
