import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The Discord sandbox's grants: an authorization code (single use, 10 minutes, tied to its redirect URI)
 * and the access token it was swapped for. In PostgreSQL so every instance's sandbox sees the same grants.
 */
export const discordSandboxGrants = pgTable('discord_sandbox_grants', {
  code: text('code').primaryKey(),
  clientId: text('client_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope').notNull(),
  discordUserId: text('discord_user_id').notNull(),
  username: text('username').notNull(),
  avatar: text('avatar'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
  codeUsedAt: timestamp('code_used_at', { withTimezone: true }),
  accessToken: text('access_token').unique(),
  tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
});

/** Members of the sandbox's guild: added by `PUT /guilds/{guild}/members/{user}` when a person connects. */
export const discordSandboxMembers = pgTable(
  'discord_sandbox_members',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.userId] })],
);

/** The bot's DM channels (`POST /users/@me/channels`): one per recipient, as Discord answers the same one again. */
export const discordSandboxDmChannels = pgTable('discord_sandbox_dm_channels', {
  channelId: text('channel_id').primaryKey(),
  recipientId: text('recipient_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How the Discord sandbox answers a DM to a user: as usual, or the refusals to test. */
export type DiscordSandboxMode = 'normal' | 'refuse' | 'rate-limited' | 'unavailable';

export const discordSandboxUsers = pgTable('discord_sandbox_users', {
  userId: text('user_id').primaryKey(),
  mode: text('mode').$type<DiscordSandboxMode>().notNull().default('normal'),
  retryAfterSeconds: integer('retry_after_seconds').notNull().default(5),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the bot sent by direct message, with the allowed_mentions it asked for. */
export const discordSandboxMessages = pgTable(
  'discord_sandbox_messages',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id').notNull(),
    recipientId: text('recipient_id').notNull(),
    content: text('content').notNull(),
    allowedMentions: jsonb('allowed_mentions').$type<unknown>(),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index('discord_sandbox_messages_recipient_created_idx').on(t.recipientId, t.createdAt),
    index('discord_sandbox_messages_channel_created_idx').on(t.channelId, t.createdAt),
  ],
);
