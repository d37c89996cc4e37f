import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** How the Telegram sandbox answers sendMessage for a chat: as usual, or the refusals to test. */
export type TelegramSandboxMode = 'normal' | 'blocked' | 'rate-limited' | 'unavailable';

/**
 * The Telegram sandbox's chats (a private chat's id is the user's id): whether the user let the bot write
 * to them at login (`request_access=write`), and the switch that makes sendMessage refuse.
 */
export const telegramSandboxChats = pgTable('telegram_sandbox_chats', {
  chatId: text('chat_id').primaryKey(),
  writeAccessAt: timestamp('write_access_at', { withTimezone: true }),
  mode: text('mode').$type<TelegramSandboxMode>().notNull().default('normal'),
  retryAfterSeconds: integer('retry_after_seconds').notNull().default(5),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the bot sent: the text as sent and as Telegram would show it (entities parsed). */
export const telegramSandboxMessages = pgTable(
  'telegram_sandbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: text('chat_id').notNull(),
    text: text('text').notNull(),
    parseMode: text('parse_mode'),
    shownText: text('shown_text').notNull(),
    links: jsonb('links').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('telegram_sandbox_messages_chat_created_idx').on(t.chatId, t.createdAt)],
);
