import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
