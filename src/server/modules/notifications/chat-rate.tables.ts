import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * When the next message to one chat (Telegram) or one rate-limit bucket (Discord) may go out, shared by
 * every instance: a sender reserves the next free moment in one statement (decision 0266).
 */
export const chatRateSlots = pgTable('chat_rate_slots', {
  /** `telegram:<chat id>`, `discord:<bucket>`. */
  key: text('key').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});
