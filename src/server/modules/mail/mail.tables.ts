import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/**
 * The outbox: every message the product sends, rendered when it is queued and delivered by the
 * `mail.send` job. `status` and `lease_until` make a send claimable by one worker at a time, so two
 * instances (or a duplicated job) never send one message twice. Bodies of messages that carry a
 * one-time link (`sensitive`) are erased once the message is sent or has failed for good.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body'),
    html: text('html_body'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    sensitive: boolean('sensitive').notNull().default(false),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** When the next attempt is due (a sweep re-queues a message whose job was lost). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_messages_status_created_idx').on(t.status, t.createdAt),
    index('mail_messages_user_created_idx').on(t.userId, t.createdAt),
    check('mail_messages_status', sql`${t.status} IN ('pending', 'sending', 'sent', 'failed')`),
  ],
);
export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed';
export type MailMessageRow = typeof mailMessages.$inferSelect;

/** The mail sandbox's mailbox (no SMTP_URL): what would have been delivered, in the database for every instance. */
export const mailSandboxMessages = pgTable(
  'mail_sandbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The outbox message it delivers: unique, so a repeated delivery is kept once. */
    messageId: uuid('message_id'),
    from: text('from_address').notNull(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex('mail_sandbox_messages_message_key').on(t.messageId),
    index('mail_sandbox_messages_to_created_idx').on(sql`lower(${t.to})`, t.createdAt),
  ],
);
export type MailSandboxMessageRow = typeof mailSandboxMessages.$inferSelect;

/** Which optional notifications a user receives (security mails are always sent). No row: all on. */
export const mailPreferences = pgTable('mail_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  paymentCredited: boolean('payment_credited').notNull().default(true),
  ticketReply: boolean('ticket_reply').notNull().default(true),
  /** Order paid, fulfilled or refunded (migration 0016). */
  orderUpdates: boolean('order_updates').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
