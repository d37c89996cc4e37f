import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** A short number people can quote to support ("ticket #1042"). */
    number: integer('number').generatedAlwaysAsIdentity({ startWith: 1000 }).notNull().unique(),
    /** Exactly one of userId and guestId names the requester. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestId: text('guest_id'),
    subject: text('subject').notNull(),
    category: text('category').notNull(),
    priority: text('priority').notNull().default('normal'),
    status: text('status').notNull().default('open'),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    messageCount: integer('message_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the ticket last became resolved or closed; null while open or pending. Kept by a database
     * trigger (migration 0012) on every status change, so no code path has to remember it.
     */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('tickets_user_id_idx').on(t.userId, t.lastMessageAt),
    index('tickets_guest_id_idx').on(t.guestId, t.lastMessageAt),
    index('tickets_status_idx').on(t.status, t.lastMessageAt),
    check('tickets_one_requester', sql`(${t.userId} IS NULL) <> (${t.guestId} IS NULL)`),
    check('tickets_status_known', sql`${t.status} in ('open', 'pending', 'resolved', 'closed')`),
  ],
);

export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    author: text('author').notNull(),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written: plain text, never rendered as HTML. */
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_messages_ticket_idx').on(t.ticketId, t.createdAt)],
);

export type TicketRow = typeof tickets.$inferSelect;
export type TicketMessageRow = typeof ticketMessages.$inferSelect;
