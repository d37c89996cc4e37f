import { z } from 'zod';

/**
 * Support desk reports (docs/decisions/0295, docs/support-reports.md): figures over the tickets
 * created from one UTC day to another, both included.
 */

export const SUPPORT_REPORT_PATH = '/api/staff/support/report';
export const SUPPORT_REPORT_CSV_PATH = '/api/staff/support/report.csv';
/** The longest range one report covers, in days (both ends included). */
export const SUPPORT_REPORT_MAX_DAYS = 366;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) =>
  DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both included (1 when they are the same day). */
export function reportRangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export const supportReportQuerySchema = z
  .object({
    from: z.string({ error: 'Give a start date' }).refine(isRealDate, 'from must be a date (YYYY-MM-DD)'),
    to: z.string({ error: 'Give an end date' }).refine(isRealDate, 'to must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => !isRealDate(q.from) || !isRealDate(q.to) || q.from <= q.to, {
    message: 'The end date must not be before the start date',
    path: ['to'],
  })
  .refine((q) => !isRealDate(q.from) || !isRealDate(q.to) || q.from > q.to || reportRangeDays(q.from, q.to) <= SUPPORT_REPORT_MAX_DAYS, {
    message: `A report covers at most ${SUPPORT_REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type SupportReportQuery = z.infer<typeof supportReportQuerySchema>;

/** Median and 90th percentile (nearest rank) of a duration in business minutes; null when nothing was measured. */
export const durationStatsSchema = z.object({
  count: z.number().int(),
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
});
export type DurationStats = z.infer<typeof durationStatsSchema>;

/** Tickets that met their target out of those with a target that can already be judged. */
export const attainmentSchema = z.object({
  met: z.number().int(),
  counted: z.number().int(),
  /** met / counted × 100, one decimal; null when nothing was counted. */
  percent: z.number().nullable(),
});
export type Attainment = z.infer<typeof attainmentSchema>;

export const supportReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    /** When the report was computed (open tickets are judged against this instant). */
    generatedAt: z.string(),
    tickets: z.number().int(),
    resolved: z.number().int(),
    firstResponse: durationStatsSchema,
    resolution: durationStatsSchema,
    sla: z.object({
      firstResponse: attainmentSchema,
      resolution: attainmentSchema,
      byPriority: z.array(
        z.object({ priority: z.string(), tickets: z.number().int(), firstResponse: attainmentSchema, resolution: attainmentSchema }),
      ),
    }),
    /** A ticket with two tags counts under each; `tag: null` is the untagged row. */
    byTag: z.array(z.object({ tag: z.string().nullable(), tickets: z.number().int() })),
    /** `assigneeId: null` is the unassigned row. */
    byAssignee: z.array(
      z.object({
        assigneeId: z.string().nullable(),
        name: z.string().nullable(),
        tickets: z.number().int(),
        firstResponseMedianMinutes: z.number().nullable(),
        resolved: z.number().int(),
        ratings: z.number().int(),
        averageRating: z.number().nullable(),
      }),
    ),
    ratings: z.object({
      count: z.number().int(),
      average: z.number().nullable(),
      /** Tickets per star, one to five, in that order. */
      stars: z.array(z.object({ stars: z.number().int(), count: z.number().int() })),
    }),
    /** ISO weeks (Monday start, UTC) that overlap the range, oldest first. */
    weeks: z.array(
      z.object({
        /** The week's Monday, YYYY-MM-DD. */
        weekStart: z.string(),
        /** ISO week label, e.g. 2026-W47. */
        isoWeek: z.string(),
        opened: z.number().int(),
        resolved: z.number().int(),
        firstResponseMedianMinutes: z.number().nullable(),
        firstResponse: attainmentSchema,
        resolution: attainmentSchema,
      }),
    ),
  })
  .meta({ id: 'SupportReport' });
export type SupportReport = z.infer<typeof supportReportSchema>;
