import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
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
    /** The first staff reply the requester can see (internal notes and merge notices do not count). */
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    /** Set when staff merged this ticket into another (it is closed; its messages moved there). */
    mergedInto: uuid('merged_into').references((): AnyPgColumn => tickets.id, { onDelete: 'set null' }),
    /** The requester's rating of the answer (1-5), given once after the ticket is resolved or closed. */
    rating: integer('rating'),
    ratingComment: text('rating_comment'),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    /** Lower-case labels set by staff and automation rules (docs/decisions/0292). */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    index('tickets_user_id_idx').on(t.userId, t.lastMessageAt),
    index('tickets_guest_id_idx').on(t.guestId, t.lastMessageAt),
    index('tickets_status_idx').on(t.status, t.lastMessageAt),
    // The staff's queue of every ticket, latest activity first (migration 0042).
    index('tickets_last_message_idx').on(t.lastMessageAt.desc(), t.id.desc()),
    check('tickets_one_requester', sql`(${t.userId} IS NULL) <> (${t.guestId} IS NULL)`),
    check('tickets_status_known', sql`${t.status} in ('open', 'pending', 'resolved', 'closed')`),
    check('tickets_rating_range', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 5`),
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
    /** reply: seen by the requester; internal: a staff note the requester never sees; event: a notice (merge). */
    kind: text('kind').notNull().default('reply'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_messages_ticket_idx').on(t.ticketId, t.createdAt),
    check('ticket_messages_kind_known', sql`${t.kind} in ('reply', 'internal', 'event')`),
  ],
);

/** Answers staff keep at hand and insert into the reply box. */
export const ticketCannedReplies = pgTable('ticket_canned_replies', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A file on a ticket message. The bytes live outside the database, under ATTACHMENTS_DIR by
 * `storage_key` (a random name, never the user's); the type is the one detected from the content.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => ticketMessages.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_attachments_ticket_idx').on(t.ticketId), index('ticket_attachments_message_idx').on(t.messageId)],
);

export type TicketRow = typeof tickets.$inferSelect;
export type TicketMessageRow = typeof ticketMessages.$inferSelect;
export type TicketAttachmentRow = typeof ticketAttachments.$inferSelect;
