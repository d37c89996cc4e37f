import { and, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import type { Attainment, DurationStats, SupportReport } from '#shared/schemas/support-reports.js';
import { TICKET_PRIORITIES } from '#shared/schemas/tickets.js';
import type { DbOrTx } from '#server/db/client.js';
import { csvText } from '#server/modules/receipts/receipts.service.js';
import { addBusinessMs, businessMsBetween, type BusinessCalendar } from '../hours/business-hours.js';
import { loadBusinessCalendar, loadSlaTargets, type SlaTarget } from '../hours/support-calendar.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/**
 * Support desk reports (docs/decisions/0295): every figure is over the tickets created from `from` to
 * `to` (UTC days, both included), merged tickets left out, durations in business minutes of the desk's
 * calendar (docs/decisions/0292). Computed in memory from one read of those tickets: a year of a
 * desk's tickets is small next to what the business-hours arithmetic costs per ticket anyway.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const DONE = new Set(['resolved', 'closed']);

/**
 * The p-th percentile by nearest rank: the smallest measured value with at least p % of the values at
 * or below it (rank ⌈p/100 × n⌉ of the sorted values). The median is the 50th: for an even count, the
 * lower of the two middle values. Always a value some ticket really had.
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

function durationStats(minutes: number[]): DurationStats {
  const sorted = [...minutes].sort((a, b) => a - b);
  return { count: sorted.length, medianMinutes: nearestRank(sorted, 50), p90Minutes: nearestRank(sorted, 90) };
}

function attainment(met: number, counted: number): Attainment {
  return { met, counted, percent: counted === 0 ? null : Math.round((met / counted) * 1000) / 10 };
}

class Tally {
  met = 0;
  counted = 0;
  add(verdict: Verdict): void {
    if (verdict === 'met') this.met += 1;
    if (verdict !== 'none') this.counted += 1;
  }
  get value(): Attainment {
    return attainment(this.met, this.counted);
  }
}

/** met / missed against a target, or none: no target, or not decided yet (open, still within it). */
type Verdict = 'met' | 'missed' | 'none';

/**
 * One target judged for one ticket. `tookMs` is the business time the thing measured took (first
 * reply, resolution), null when it has not happened; `stillOpen` says whether it may yet happen. An
 * open ticket is judged by its due instant, so a ticket open for a year costs no more than a new one.
 */
function judge(
  cal: BusinessCalendar,
  targetMinutes: number | null,
  createdAt: Date,
  tookMs: number | null,
  stillOpen: boolean,
  now: Date,
): Verdict {
  if (targetMinutes === null) return 'none';
  if (tookMs !== null) return tookMs <= targetMinutes * MINUTE ? 'met' : 'missed';
  if (!stillOpen) return 'none';
  const due = addBusinessMs(cal, createdAt, targetMinutes * MINUTE);
  return due !== null && now.getTime() > due.getTime() ? 'missed' : 'none';
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The Monday (UTC) of the ISO week holding an instant, as ms at 00:00 UTC. */
function mondayOf(ms: number): number {
  const day = Math.floor(ms / DAY) * DAY;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday * DAY;
}

/** ISO week label of a Monday: the year is that of the week's Thursday. */
function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

interface WeekAcc {
  monday: number;
  opened: number;
  resolved: number;
  firstResponses: number[];
  fr: Tally;
  res: Tally;
}

interface AssigneeAcc {
  id: string | null;
  name: string | null;
  tickets: number;
  firstResponses: number[];
  resolved: number;
  ratingSum: number;
  ratings: number;
}

export async function buildSupportReport(db: DbOrTx, from: string, to: string, now = new Date()): Promise<SupportReport> {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY);
  const [cal, targets] = await Promise.all([loadBusinessCalendar(db), loadSlaTargets(db)]);

  const rows = await db
    .select({
      createdAt: tickets.createdAt,
      firstResponseAt: tickets.firstResponseAt,
      closedAt: tickets.closedAt,
      status: tickets.status,
      priority: tickets.priority,
      assignedTo: tickets.assignedTo,
      assigneeName: users.username,
      rating: tickets.rating,
      tags: tickets.tags,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.assignedTo))
    .where(and(gte(tickets.createdAt, start), lt(tickets.createdAt, end), isNull(tickets.mergedInto)));

  // Resolutions in the range, whatever day the ticket was opened: the weekly "resolved" column.
  const resolvedInRange = await db
    .select({ closedAt: tickets.closedAt })
    .from(tickets)
    .where(
      and(
        gte(tickets.closedAt, start),
        lt(tickets.closedAt, end),
        inArray(tickets.status, ['resolved', 'closed']),
        isNull(tickets.mergedInto),
      ),
    );

  const weeks = new Map<number, WeekAcc>();
  for (let m = mondayOf(start.getTime()); m < end.getTime(); m += 7 * DAY) {
    weeks.set(m, { monday: m, opened: 0, resolved: 0, firstResponses: [], fr: new Tally(), res: new Tally() });
  }
  for (const r of resolvedInRange) if (r.closedAt) weeks.get(mondayOf(r.closedAt.getTime()))!.resolved += 1;

  const firstResponses: number[] = [];
  const resolutions: number[] = [];
  const fr = new Tally();
  const res = new Tally();
  const byPriority = new Map<string, { tickets: number; fr: Tally; res: Tally }>(
    TICKET_PRIORITIES.slice()
      .reverse()
      .map((p) => [p, { tickets: 0, fr: new Tally(), res: new Tally() }]),
  );
  const byTag = new Map<string | null, number>();
  const byAssignee = new Map<string | null, AssigneeAcc>();
  const stars = [0, 0, 0, 0, 0];
  let resolved = 0;

  for (const t of rows) {
    const done = DONE.has(t.status);
    const target: SlaTarget | undefined = targets.get(t.priority);
    const frMs = t.firstResponseAt ? businessMsBetween(cal, t.createdAt, t.firstResponseAt) : null;
    const resMs = done && t.closedAt ? businessMsBetween(cal, t.createdAt, t.closedAt) : null;
    const frMinutes = frMs === null ? null : frMs / MINUTE;
    if (frMinutes !== null) firstResponses.push(frMinutes);
    if (resMs !== null) {
      resolved += 1;
      resolutions.push(resMs / MINUTE);
    }
    // A ticket closed without a visible reply has no first response to judge (docs/decisions/0295).
    const frVerdict = judge(cal, target?.firstResponseMinutes ?? null, t.createdAt, frMs, !done, now);
    const resVerdict = judge(cal, target?.resolutionMinutes ?? null, t.createdAt, resMs, !done, now);
    fr.add(frVerdict);
    res.add(resVerdict);

    let prio = byPriority.get(t.priority);
    if (!prio) byPriority.set(t.priority, (prio = { tickets: 0, fr: new Tally(), res: new Tally() }));
    prio.tickets += 1;
    prio.fr.add(frVerdict);
    prio.res.add(resVerdict);

    const tags = t.tags.length > 0 ? [...new Set(t.tags)] : [null];
    for (const tag of tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);

    let who = byAssignee.get(t.assignedTo);
    if (!who)
      byAssignee.set(
        t.assignedTo,
        (who = { id: t.assignedTo, name: t.assigneeName, tickets: 0, firstResponses: [], resolved: 0, ratingSum: 0, ratings: 0 }),
      );
    who.tickets += 1;
    if (frMinutes !== null) who.firstResponses.push(frMinutes);
    if (done) who.resolved += 1;
    if (t.rating !== null) {
      who.ratings += 1;
      who.ratingSum += t.rating;
      stars[t.rating - 1]! += 1;
    }

    const week = weeks.get(mondayOf(t.createdAt.getTime()))!;
    week.opened += 1;
    if (frMinutes !== null) week.firstResponses.push(frMinutes);
    week.fr.add(frVerdict);
    week.res.add(resVerdict);
  }

  const rated = stars.reduce((s, c) => s + c, 0);
  const ratingTotal = stars.reduce((s, c, i) => s + c * (i + 1), 0);
  const average = (sum: number, n: number) => (n === 0 ? null : Math.round((sum / n) * 100) / 100);
  const median = (values: number[]) =>
    nearestRank(
      [...values].sort((a, b) => a - b),
      50,
    );

  return {
    from,
    to,
    generatedAt: now.toISOString(),
    tickets: rows.length,
    resolved,
    firstResponse: durationStats(firstResponses),
    resolution: durationStats(resolutions),
    sla: {
      firstResponse: fr.value,
      resolution: res.value,
      byPriority: [...byPriority.entries()]
        .filter(([p, v]) => v.tickets > 0 || (TICKET_PRIORITIES as readonly string[]).includes(p))
        .map(([priority, v]) => ({ priority, tickets: v.tickets, firstResponse: v.fr.value, resolution: v.res.value })),
    },
    byTag: [...byTag.entries()]
      .map(([tag, n]) => ({ tag, tickets: n }))
      .sort((a, b) => (a.tag === null ? 1 : b.tag === null ? -1 : b.tickets - a.tickets || a.tag.localeCompare(b.tag))),
    byAssignee: [...byAssignee.values()]
      .map((a) => ({
        assigneeId: a.id,
        name: a.name,
        tickets: a.tickets,
        firstResponseMedianMinutes: median(a.firstResponses),
        resolved: a.resolved,
        ratings: a.ratings,
        averageRating: average(a.ratingSum, a.ratings),
      }))
      .sort((a, b) =>
        a.assigneeId === null ? 1 : b.assigneeId === null ? -1 : b.tickets - a.tickets || (a.name ?? '').localeCompare(b.name ?? ''),
      ),
    ratings: { count: rated, average: average(ratingTotal, rated), stars: stars.map((count, i) => ({ stars: i + 1, count })) },
    weeks: [...weeks.values()].map((w) => ({
      weekStart: isoDay(w.monday),
      isoWeek: isoWeekLabel(w.monday),
      opened: w.opened,
      resolved: w.resolved,
      firstResponseMedianMinutes: median(w.firstResponses),
      firstResponse: w.fr.value,
      resolution: w.res.value,
    })),
  };
}

/** Minutes as written in the CSV: one decimal, empty when nothing was measured. */
const minutesCell = (v: number | null) => (v === null ? '' : v.toFixed(1));
const numCell = (v: number | null) => (v === null ? '' : String(v));

export const REPORT_CSV_HEADER = [
  'section',
  'key',
  'tickets',
  'resolved',
  'first_response_median_minutes',
  'first_response_met',
  'first_response_with_target',
  'first_response_attainment_pct',
  'resolution_met',
  'resolution_with_target',
  'resolution_attainment_pct',
  'average_rating',
];

/**
 * The report as one CSV table (docs/support-reports.md#the-csv-file): a `total` row, then one row per
 * `week`, `priority`, `assignee` and `tag`; columns a section has no figure for are empty.
 */
export function supportReportCsv(report: SupportReport): string {
  const lines = [REPORT_CSV_HEADER.join(',')];
  const att = (a: Attainment) => [String(a.met), String(a.counted), numCell(a.percent)];
  const blankAtt = ['', '', ''];
  lines.push(
    [
      'total',
      `${report.from}..${report.to}`,
      report.tickets,
      report.resolved,
      minutesCell(report.firstResponse.medianMinutes),
      ...att(report.sla.firstResponse),
      ...att(report.sla.resolution),
      numCell(report.ratings.average),
    ].join(','),
  );
  for (const w of report.weeks) {
    lines.push(
      [
        'week',
        w.weekStart,
        w.opened,
        w.resolved,
        minutesCell(w.firstResponseMedianMinutes),
        ...att(w.firstResponse),
        ...att(w.resolution),
        '',
      ].join(','),
    );
  }
  for (const p of report.sla.byPriority) {
    lines.push(['priority', csvText(p.priority), p.tickets, '', '', ...att(p.firstResponse), ...att(p.resolution), ''].join(','));
  }
  for (const a of report.byAssignee) {
    lines.push(
      [
        'assignee',
        a.assigneeId === null ? '(unassigned)' : csvText(a.name ?? a.assigneeId),
        a.tickets,
        a.resolved,
        minutesCell(a.firstResponseMedianMinutes),
        ...blankAtt,
        ...blankAtt,
        numCell(a.averageRating),
      ].join(','),
    );
  }
  for (const t of report.byTag) {
    lines.push(['tag', t.tag === null ? '(untagged)' : csvText(t.tag), t.tickets, '', '', ...blankAtt, ...blankAtt, ''].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
