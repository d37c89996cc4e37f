import { z } from 'zod';
import { LOCALES } from '#shared/constants.js';
import { emailSchema } from './auth.js';
import { multiline, uuidParamsSchema } from './common.js';

/** The monitored components, in display order (ids match the status page's content file). */
export const STATUS_COMPONENT_IDS = ['api', 'database', 'payment-provider', 'swap-provider'] as const;
export type StatusComponentId = (typeof STATUS_COMPONENT_IDS)[number];
export const statusComponentIdSchema = z.enum(STATUS_COMPONENT_IDS);

export const STATUS_COMPONENT_NAMES: Record<StatusComponentId, string> = {
  api: 'API',
  database: 'Database',
  'payment-provider': 'Payment provider',
  'swap-provider': 'Swap provider',
};

/** What one check finds. `unknown`: no check recorded recently (the checker itself may be down). */
export const CHECK_STATES = ['up', 'degraded', 'down'] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const componentStateSchema = z.enum(['up', 'degraded', 'down', 'unknown']);
export type ComponentState = z.infer<typeof componentStateSchema>;
/**
 * The page's headline: the worst component state, or `maintenance` while a maintenance window is in
 * progress and nothing is degraded or down (decision 0230).
 */
export const overallStateSchema = z.enum(['up', 'degraded', 'down', 'unknown', 'maintenance']);
export type OverallState = z.infer<typeof overallStateSchema>;

/** Checks run every minute; a component's last check older than this is shown as unknown. */
export const STATUS_CHECK_INTERVAL_S = 60;
export const STATUS_STALE_AFTER_S = 5 * 60;
export const STATUS_HISTORY_DAYS = 90;
/** How often the status page asks again. */
export const STATUS_PAGE_REFRESH_MS = 30_000;

export const INCIDENT_IMPACTS = ['minor', 'major', 'critical'] as const;
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/**
 * What an open (not yet resolved) incident does to the components it names, and to the headline when it
 * names none: never less than its impact, whatever the checks find (decision 0230).
 */
export const INCIDENT_IMPACT_STATE: Record<IncidentImpact, 'degraded' | 'down'> = { minor: 'degraded', major: 'down', critical: 'down' };

export const statusDaySchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  /** Share of checks that found the component up or degraded (it answered); null: no checks that day. */
  uptimePercent: z.number().nullable(),
  up: z.number().int(),
  degraded: z.number().int(),
  down: z.number().int(),
});
export type StatusDay = z.infer<typeof statusDaySchema>;

export const statusComponentSchema = z.object({
  id: statusComponentIdSchema,
  name: z.string(),
  /** The worse of what the last check found and what open incidents naming this component say. */
  state: componentStateSchema,
  /** What the last check found (`unknown` when it is too old). */
  checkState: componentStateSchema,
  latencyMs: z.number().int().nullable(),
  detail: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Over the days of the history that had checks; null when none had. */
  uptimePercent: z.number().nullable(),
  /** How many days of the history had checks (the days `uptimePercent` is measured over). */
  measuredDays: z.number().int(),
  /** STATUS_HISTORY_DAYS entries, oldest first, today last. */
  history: z.array(statusDaySchema),
});
export type StatusComponentReport = z.infer<typeof statusComponentSchema>;

export const incidentUpdateSchema = z.object({
  _id: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  message: z.string(),
  createdAt: z.string(),
});

export const incidentSchema = z.object({
  _id: z.string(),
  title: z.string(),
  impact: z.enum(INCIDENT_IMPACTS),
  status: z.enum(INCIDENT_STATUSES),
  components: z.array(statusComponentIdSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** Newest first. */
  updates: z.array(incidentUpdateSchema),
});
export type Incident = z.infer<typeof incidentSchema>;

/** `scheduled` before its start, `in_progress` during the window, `completed` after its end. */
export const MAINTENANCE_STATES = ['scheduled', 'in_progress', 'completed'] as const;
export type MaintenanceState = (typeof MAINTENANCE_STATES)[number];

export const maintenanceSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    description: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    state: z.enum(MAINTENANCE_STATES),
    createdAt: z.string(),
  })
  .meta({ id: 'StatusMaintenance' });
export type Maintenance = z.infer<typeof maintenanceSchema>;

export const statusResponseSchema = z.object({
  /** The worst current state across components and open incidents, or `maintenance` (see overallStateSchema). */
  overall: overallStateSchema,
  components: z.array(statusComponentSchema),
  /** Open incidents and those resolved within the history window, newest first. */
  incidents: z.array(incidentSchema),
  /** Maintenance windows not yet over and those ended within the last 7 days, soonest start first. */
  maintenance: z.array(maintenanceSchema),
  generatedAt: z.string(),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

/**
 * GET /api/status/current: what affects each component right now, without the history, for the notices
 * on the pages that use a component (the top-up form, the exchange): cheap enough to ask on every visit.
 */
export const currentStatusResponseSchema = z.object({
  components: z.array(statusComponentSchema.pick({ id: true, name: true, state: true })),
  /** The incidents not yet resolved, newest first. */
  incidents: z.array(incidentSchema),
  /** Maintenance windows under way now. */
  maintenance: z.array(maintenanceSchema),
});
export type CurrentStatusResponse = z.infer<typeof currentStatusResponseSchema>;

/** A timeline entry may have several lines. */
const incidentMessage = multiline(
  z
    .string({ error: 'Message is required' })
    .trim()
    .min(3, 'Message must be at least 3 characters')
    .max(2000, 'Message must be at most 2000 characters'),
);

export const createIncidentBodySchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(3, 'Title must be at least 3 characters')
    .max(120, 'Title must be at most 120 characters'),
  impact: z.enum(INCIDENT_IMPACTS).default('minor'),
  status: z.enum(INCIDENT_STATUSES).default('investigating'),
  components: z.array(statusComponentIdSchema).max(STATUS_COMPONENT_IDS.length).default([]),
  message: incidentMessage,
});
export type CreateIncidentBody = z.input<typeof createIncidentBodySchema>;

/** A change to an incident; a message adds an entry to its timeline. */
export const updateIncidentBodySchema = z
  .object({
    title: z.string().trim().min(3, 'Title must be at least 3 characters').max(120, 'Title must be at most 120 characters').optional(),
    impact: z.enum(INCIDENT_IMPACTS).optional(),
    status: z.enum(INCIDENT_STATUSES).optional(),
    components: z.array(statusComponentIdSchema).max(STATUS_COMPONENT_IDS.length).optional(),
    message: incidentMessage.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type UpdateIncidentBody = z.input<typeof updateIncidentBodySchema>;

export const incidentIdParamsSchema = uuidParamsSchema('Unknown incident');
export const incidentResponseSchema = z.object({ incident: incidentSchema });

// ---- Scheduled maintenance and subscriptions (decision 0186) ------------------------------------------------

/** An ISO 8601 date-time with its offset (what `Date.toISOString()` writes). */
const isoDateTime = z.iso.datetime({ offset: true, error: 'Enter a date and time' });

export const createMaintenanceBodySchema = z
  .object({
    title: z
      .string({ error: 'Title is required' })
      .trim()
      .min(3, 'Title must be at least 3 characters')
      .max(120, 'Title must be at most 120 characters'),
    description: multiline(
      z
        .string({ error: 'Description is required' })
        .trim()
        .min(3, 'Description must be at least 3 characters')
        .max(2000, 'Description must be at most 2000 characters'),
    ),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
  })
  .refine((v) => Date.parse(v.endsAt) > Date.parse(v.startsAt), { message: 'The end must be after the start', path: ['endsAt'] });
export type CreateMaintenanceBody = z.input<typeof createMaintenanceBodySchema>;
/** Editing a window: any of its fields; the end must still come after the start (checked with the stored values too). */
export const updateMaintenanceBodySchema = z
  .object({
    title: createMaintenanceBodySchema.shape.title.optional(),
    description: createMaintenanceBodySchema.shape.description.optional(),
    startsAt: isoDateTime.optional(),
    endsAt: isoDateTime.optional(),
  })
  .refine((v) => !v.startsAt || !v.endsAt || Date.parse(v.endsAt) > Date.parse(v.startsAt), {
    message: 'The end must be after the start',
    path: ['endsAt'],
  });
export type UpdateMaintenanceBody = z.input<typeof updateMaintenanceBodySchema>;
export const maintenanceIdParamsSchema = uuidParamsSchema('Unknown maintenance');
export const maintenanceResponseSchema = z.object({ maintenance: maintenanceSchema });

export const subscribeBodySchema = z.object({
  email: emailSchema,
  /** The status page's language: the confirmation and every notice are written in it (English without it). */
  locale: z.enum(LOCALES).optional(),
});
export type SubscribeBody = z.infer<typeof subscribeBodySchema>;
const subscriptionTokenSchema = z.string({ error: 'The link is incomplete' }).min(1).max(500);
export const subscriptionTokenBodySchema = z.object({ token: subscriptionTokenSchema });
export type SubscriptionTokenBody = z.infer<typeof subscriptionTokenBodySchema>;
/**
 * Unsubscribing: the page's button sends `{ token }` as JSON; a mail client's RFC 8058 one-click POST
 * sends the form `List-Unsubscribe=One-Click` to the List-Unsubscribe URL, which carries the token.
 */
export const unsubscribeStatusBodySchema = z.object({
  token: subscriptionTokenSchema.optional(),
  'List-Unsubscribe': z.literal('One-Click').optional(),
});
export const unsubscribeStatusQuerySchema = z.object({ token: subscriptionTokenSchema.optional() });
export const subscriptionMessageResponseSchema = z.object({ message: z.string() });
