import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions } from '#server/modules/auth/sessions.tables.js';

/**
 * OAuth `state` values handed out with an authorize URL: bound to one session, used once, short-lived
 * (docs/product.md#accounts). Kept in PostgreSQL so any instance can check a state another one issued.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    /** SHA-256 of the state: a leaked table row cannot be replayed as a state. */
    stateHash: text('state_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('oauth_states_expires_at_idx').on(t.expiresAt)],
);

export interface VerifiedProfile {
  username: string | null;
  avatar?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * The provider identity a session proved in the last few minutes (Discord code exchange or Telegram
 * hash check). Connecting is accepted only for this identity; one row per session and provider.
 */
export const connectionVerifications = pgTable(
  'connection_verifications',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    profile: jsonb('profile').$type<VerifiedProfile>().notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.provider] }), index('connection_verifications_expires_at_idx').on(t.expiresAt)],
);

/**
 * Telegram Login Widget payloads already accepted (SHA-256 of their hash), so a payload seen in a
 * browser history or a log cannot be replayed by another session while it is still fresh.
 */
export const usedLoginProofs = pgTable(
  'used_login_proofs',
  {
    proofHash: text('proof_hash').primaryKey(),
    provider: text('provider').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_login_proofs_expires_at_idx').on(t.expiresAt)],
);
