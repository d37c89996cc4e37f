import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { SLA_DUE_SOON_MS, type SlaClock, type SlaQueueFilter, type TicketSla } from '#shared/schemas/support-sla.js';
import type { DbOrTx } from '#server/db/client.js';
import { addBusinessMs, businessMsBetween, type BusinessCalendar } from '../hours/business-hours.js';
import { loadBusinessCalendar, loadSlaTargets, type SlaTarget } from '../hours/support-calendar.js';
import { tickets } from '../tickets/tickets.tables.js';

/**
 * The SLA state of a ticket (docs/decisions/0293). Both clocks start when the ticket is opened and
 * count business time in the desk's calendar; first response stops at the first visible staff answer,
 * resolution when the ticket is resolved or closed. The clock does not pause while a ticket is
 * pending (decision 0293 says why).
 */
export interface SlaFacts {
  createdAt: Date;
  firstResponseAt: Date | null;
  closedAt: Date | null;
  priority: string;
}

export interface SlaContext {
  calendar: BusinessCalendar;
  targets: Map<string, SlaTarget>;
}

export async function loadSlaContext(db: DbOrTx): Promise<SlaContext> {
  const [calendar, targets] = await Promise.all([loadBusinessCalendar(db), loadSlaTargets(db)]);
  return { calendar, targets };
}

const MINUTE = 60_000;

/** One clock: due = addBusinessMs(opened, target); met, breached or the business time left. */
export function clockState(
  calendar: BusinessCalendar,
  openedAt: Date,
  targetMinutes: number | null,
  doneAt: Date | null,
  now: Date,
): SlaClock | null {
  if (targetMinutes === null) return null;
  const due = addBusinessMs(calendar, openedAt, targetMinutes * MINUTE);
  if (!due) return { state: doneAt ? 'met' : 'running', dueAt: null, businessMsLeft: 0 };
  const dueAt = due.toISOString();
  if (doneAt) return { state: doneAt.getTime() <= due.getTime() ? 'met' : 'breached', dueAt, businessMsLeft: 0 };
  if (now.getTime() >= due.getTime()) return { state: 'breached', dueAt, businessMsLeft: 0 };
  return { state: 'running', dueAt, businessMsLeft: businessMsBetween(calendar, now, due) };
}

export function ticketSla(ctx: SlaContext, t: SlaFacts, now: Date): TicketSla {
  const target = ctx.targets.get(t.priority);
  // A ticket resolved or closed with no visible answer owes none: its first-response clock is off.
  const firstResponseOff = t.firstResponseAt === null && t.closedAt !== null;
  return {
    firstResponse: firstResponseOff
      ? null
      : clockState(ctx.calendar, t.createdAt, target?.firstResponseMinutes ?? null, t.firstResponseAt, now),
    resolution: clockState(ctx.calendar, t.createdAt, target?.resolutionMinutes ?? null, t.closedAt, now),
  };
}

/**
 * Adds `sla` to ticket DTOs of the staff queue and ticket view (one read of calendar and targets, one
 * of the rows' clock columns).
 */
export async function withSla<T extends { _id: string }>(db: DbOrTx, items: T[], now = new Date()): Promise<Array<T & { sla: TicketSla }>> {
  if (items.length === 0) return [];
  const ctx = await loadSlaContext(db);
  const rows = await db
    .select({
      id: tickets.id,
      createdAt: tickets.createdAt,
      firstResponseAt: tickets.firstResponseAt,
      closedAt: tickets.closedAt,
      priority: tickets.priority,
    })
    .from(tickets)
    .where(
      inArray(
        tickets.id,
        items.map((i) => i._id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((item) => {
    const row = byId.get(item._id);
    const sla = row ? ticketSla(ctx, row, now) : { firstResponse: null, resolution: null };
    return { ...item, sla };
  });
}

/** Tickets with a target still owed are the ones not resolved or closed (a closed one owes no answer either). */
export const owesSomething: SQL = isNull(tickets.closedAt);

/** At most this many open tickets are looked at by the queue's SLA filter and by one breach run. */
export const SLA_SCAN_MAX = 5_000;

/** Whether a clock still owed is breached, or due within the next business hour. */
function matches(clock: SlaClock | null, filter: SlaQueueFilter, done: boolean): boolean {
  if (!clock || done) return false;
  if (filter === 'breached') return clock.state === 'breached';
  return clock.state === 'running' && clock.businessMsLeft <= SLA_DUE_SOON_MS;
}

/**
 * The queue's "breached" / "due soon" filter as a condition on tickets: the state is computed here
 * (business time is not SQL), over the open tickets, then named by id.
 */
export async function slaQueueCondition(db: DbOrTx, filter: SlaQueueFilter, now = new Date()): Promise<SQL> {
  const ctx = await loadSlaContext(db);
  const rows = await db
    .select({
      id: tickets.id,
      createdAt: tickets.createdAt,
      firstResponseAt: tickets.firstResponseAt,
      closedAt: tickets.closedAt,
      priority: tickets.priority,
    })
    .from(tickets)
    .where(and(owesSomething, isNull(tickets.mergedInto)))
    .limit(SLA_SCAN_MAX);
  const ids = rows
    .filter((r) => {
      const sla = ticketSla(ctx, r, now);
      return matches(sla.firstResponse, filter, r.firstResponseAt !== null) || matches(sla.resolution, filter, false);
    })
    .map((r) => r.id);
  return ids.length > 0 ? inArray(tickets.id, ids) : sql`false`;
}
