import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/** The desk's business hours: one row, id 1 (docs/decisions/0292). */
export const supportCalendar = pgTable(
  'support_calendar',
  {
    id: integer('id').primaryKey().default(1),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** ISO weekdays worked: 1 = Monday … 7 = Sunday. */
    days: integer('days')
      .array()
      .notNull()
      .default(sql`'{1,2,3,4,5}'::integer[]`),
    startMinute: integer('start_minute').notNull().default(540),
    endMinute: integer('end_minute').notNull().default(1020),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('support_calendar_single_row', sql`${t.id} = 1`)],
);

/** Local dates the desk does not work, in the calendar's zone. */
export const supportHolidays = pgTable('support_holidays', {
  day: date('day', { mode: 'string' }).primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Targets per ticket priority, in business minutes; null means no target. */
export const supportSlaTargets = pgTable('support_sla_targets', {
  priority: text('priority').primaryKey(),
  firstResponseMinutes: integer('first_response_minutes'),
  resolutionMinutes: integer('resolution_minutes'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
