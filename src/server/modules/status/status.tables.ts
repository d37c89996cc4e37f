import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/** Every check result (kept for a week: the recent detail behind the daily roll-up). */
export const statusChecks = pgTable(
  'status_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    component: text('component').notNull(),
    state: text('state').notNull(),
    latencyMs: integer('latency_ms'),
    /** Short reason for a state other than up (e.g. "timed out after 3000 ms"); never a secret. */
    detail: text('detail'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('status_checks_component_time_idx').on(t.component, t.checkedAt),
    check('status_checks_state_known', sql`${t.state} in ('up', 'degraded', 'down')`),
  ],
);

/**
 * Counts per component and UTC day, bumped in the same statement as each check, so the 90-day history
 * is 90 small rows per component rather than a scan of every check.
 */
export const statusDaily = pgTable(
  'status_daily',
  {
    component: text('component').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    upCount: integer('up_count').notNull().default(0),
    degradedCount: integer('degraded_count').notNull().default(0),
    downCount: integer('down_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.component, t.day] })],
);

export const statusIncidents = pgTable(
  'status_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    impact: text('impact').notNull(),
    status: text('status').notNull(),
    components: jsonb('components').$type<string[]>().notNull().default([]),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    index('status_incidents_created_idx').on(t.createdAt),
    check('status_incidents_impact_known', sql`${t.impact} in ('minor', 'major', 'critical')`),
    check('status_incidents_status_known', sql`${t.status} in ('investigating', 'identified', 'monitoring', 'resolved')`),
  ],
);

/** The timeline of an incident: each post by staff, with the status it set. */
export const statusIncidentUpdates = pgTable(
  'status_incident_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => statusIncidents.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    message: text('message').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_incident_updates_incident_idx').on(t.incidentId, t.createdAt)],
);

export type StatusIncidentRow = typeof statusIncidents.$inferSelect;
export type StatusIncidentUpdateRow = typeof statusIncidentUpdates.$inferSelect;

/** A maintenance window staff announce in advance (shown as in progress between its start and end). */
export const statusMaintenances = pgTable(
  'status_maintenances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Set when staff cancel the window: it leaves the page and the feed, the row stays (decision 0187). */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_maintenances_ends_idx').on(t.endsAt), check('status_maintenances_window', sql`${t.endsAt} > ${t.startsAt}`)],
);

/**
 * An email address subscribed to status notices, without an account. Notices go only to confirmed
 * addresses (double opt-in); an unsubscribed address is deleted.
 */
export const statusSubscribers = pgTable(
  'status_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text('email').notNull().unique('status_subscribers_email_key'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The language the address subscribed in (the status page's), its mail's language; null is English. */
    locale: text('locale'),
  },
  (t) => [check('status_subscribers_locale_known', sql`${t.locale} in ('en', 'es', 'ru', 'de')`)],
);

export type StatusMaintenanceRow = typeof statusMaintenances.$inferSelect;
export type StatusSubscriberRow = typeof statusSubscribers.$inferSelect;
