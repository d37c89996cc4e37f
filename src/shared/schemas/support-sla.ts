import { z } from 'zod';

/**
 * SLA targets of the support desk, counted in business hours (docs/decisions/0292 for the calendar,
 * 0293 for the targets, the queue's state and the breach notices): the calendar admins edit, its
 * holidays, the per-priority targets, and the SLA state the staff queue shows on each ticket.
 */

export const SLA_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type SlaPriority = (typeof SLA_PRIORITIES)[number];
export const SLA_KINDS = ['first_response', 'resolution'] as const;
export type SlaKind = (typeof SLA_KINDS)[number];

/** A target of at most 1,000 business hours (about half a working year at 8 h a day). */
export const SLA_TARGET_MAX_MINUTES = 60_000;
export const HOLIDAY_NAME_MAX = 80;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** "09:00" → 540; "24:00" → 1440 (the end of the day). */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}
/** 540 → "09:00". */
export function hhmmOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** True when the runtime knows the IANA zone (e.g. "Europe/Berlin"). */
export function isIanaZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeField = (label: string) =>
  z.string({ error: `Enter the ${label} time` }).regex(HHMM, `Enter the ${label} time as HH:MM, e.g. 09:00`);

export const slaCalendarSchema = z.object({
  timeZone: z
    .string({ error: 'Enter a time zone' })
    .trim()
    .min(1, 'Enter a time zone')
    .max(64, 'Unknown time zone')
    .refine(isIanaZone, 'Unknown time zone: use an IANA name such as Europe/Berlin'),
  /** ISO weekdays worked: 1 = Monday … 7 = Sunday. */
  days: z
    .array(z.number({ error: 'A weekday is a number from 1 (Monday) to 7 (Sunday)' }).int().min(1).max(7), {
      error: 'Choose the working days',
    })
    .min(1, 'Choose at least one working day')
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Each weekday once'),
  start: timeField('start'),
  end: timeField('end'),
});
export type SlaCalendar = z.infer<typeof slaCalendarSchema>;

/** The body of PUT /staff/support/calendar: the window must hold some working time. */
export const slaCalendarBodySchema = slaCalendarSchema.refine(
  (c) => !HHMM.test(c.start) || !HHMM.test(c.end) || minutesOfDay(c.start) < minutesOfDay(c.end),
  {
    message: 'The day must end after it starts: a calendar with no working time is refused',
    path: ['end'],
  },
);
export type SlaCalendarBody = z.infer<typeof slaCalendarBodySchema>;

export const slaHolidaySchema = z.object({
  /** A local date in the calendar's zone. */
  day: z.iso.date({ error: 'Enter the date as YYYY-MM-DD' }),
  name: z
    .string({ error: 'Name the holiday' })
    .trim()
    .min(1, 'Name the holiday')
    .max(HOLIDAY_NAME_MAX, `At most ${HOLIDAY_NAME_MAX} characters`),
});
export type SlaHoliday = z.infer<typeof slaHolidaySchema>;
export const slaHolidayParamsSchema = z.object({ day: z.string().min(1).max(20) });

const targetMinutes = z
  .number({ error: 'Enter the target in minutes, or none' })
  .int('Whole minutes')
  .min(1, 'A target is at least one minute')
  .max(SLA_TARGET_MAX_MINUTES, `At most ${SLA_TARGET_MAX_MINUTES / 60} business hours`)
  .nullable();

export const slaTargetSchema = z.object({
  priority: z.enum(SLA_PRIORITIES),
  /** Business minutes from opening to the first visible staff answer; null: no target. */
  firstResponseMinutes: targetMinutes,
  /** Business minutes from opening to resolved or closed; null: no target. */
  resolutionMinutes: targetMinutes,
});
export type SlaTarget = z.infer<typeof slaTargetSchema>;

export const slaTargetsBodySchema = z.object({
  targets: z
    .array(slaTargetSchema)
    .min(1, 'Give at least one priority')
    .max(SLA_PRIORITIES.length)
    .refine((t) => new Set(t.map((x) => x.priority)).size === t.length, 'Each priority once'),
});
export type SlaTargetsBody = z.infer<typeof slaTargetsBodySchema>;

export const slaSettingsResponseSchema = z.object({
  calendar: slaCalendarSchema.extend({ updatedAt: z.string() }),
  holidays: z.array(slaHolidaySchema),
  /** One row per priority, urgent first. */
  targets: z.array(slaTargetSchema),
});
export type SlaSettingsResponse = z.infer<typeof slaSettingsResponseSchema>;

// ---- The SLA state of one ticket (staff queue and ticket view) ----------------------------------------

export const slaClockSchema = z.object({
  /** running: still owed; met: done before the due instant; breached: due passed (done late or not yet). */
  state: z.enum(['running', 'met', 'breached']),
  /** The instant the target falls due (null when the calendar has no working time left). */
  dueAt: z.string().nullable(),
  /** Business ms left until due while running (0 otherwise). */
  businessMsLeft: z.number().int(),
});
export type SlaClock = z.infer<typeof slaClockSchema>;

export const ticketSlaSchema = z.object({
  /** Null when the ticket's priority has no first-response target. */
  firstResponse: slaClockSchema.nullable(),
  /** Null when the ticket's priority has no resolution target. */
  resolution: slaClockSchema.nullable(),
});
export type TicketSla = z.infer<typeof ticketSlaSchema>;

/** Queue filter: tickets with a breached target still owed, or due within the next business hour. */
export const SLA_QUEUE_FILTERS = ['breached', 'due_soon'] as const;
export type SlaQueueFilter = (typeof SLA_QUEUE_FILTERS)[number];
/** "Due soon": at most this much business time left. */
export const SLA_DUE_SOON_MS = 60 * 60_000;
