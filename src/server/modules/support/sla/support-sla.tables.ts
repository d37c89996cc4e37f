import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tickets } from '../tickets/tickets.tables.js';

/** One row per ticket and kind once a target fell due unmet; the key makes its notice go out once (docs/decisions/0293). */
export const supportSlaBreaches = pgTable(
  'support_sla_breaches',
  {
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'support_sla_breaches_pkey', columns: [t.ticketId, t.kind] }),
    check('support_sla_breaches_kind_known', sql`${t.kind} in ('first_response', 'resolution')`),
  ],
);
