import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '#server/db/client.js';
import { AppError } from '#server/errors.js';
import { users, type DiscordIdentity, type TelegramIdentity } from '#server/modules/users/users.tables.js';
import { connectionVerifications, oauthStates, usedLoginProofs, type VerifiedProfile } from './connections.tables.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';

export type Provider = 'discord' | 'telegram';

/** How long an authorize URL's state can be used (docs/product.md#accounts: bound to the session, single use). */
export const OAUTH_STATE_TTL_S = 10 * 60;
/** How long a proven identity may be connected after the exchange or hash check ("a few minutes"). */
export const VERIFICATION_TTL_S = 5 * 60;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const inSeconds = (s: number) => new Date(Date.now() + s * 1000);

/** A new random state for an authorize URL, remembered (hashed) with the session that asked for it. */
export async function issueOAuthState(db: DbOrTx, sessionId: string, provider: Provider, redirectUri: string): Promise<string> {
  // Expired states are useless; dropping them here keeps the table small without a scheduled job.
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, sql`now() - interval '1 day'`));
  const state = randomBytes(24).toString('base64url');
  await db.insert(oauthStates).values({
    stateHash: sha256(state),
    sessionId,
    provider,
    redirectUri,
    expiresAt: inSeconds(OAUTH_STATE_TTL_S),
  });
  return state;
}

/**
 * Uses a state once: it must have been issued to this session for this provider, be unused and fresh.
 * One UPDATE decides, so two requests racing with the same state cannot both pass.
 * Answers the redirect URI the authorize URL carried (the token endpoint wants the same one).
 */
export async function consumeOAuthState(db: DbOrTx, sessionId: string, provider: Provider, state: string): Promise<string> {
  const [row] = await db
    .update(oauthStates)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(oauthStates.stateHash, sha256(state)),
        eq(oauthStates.sessionId, sessionId),
        eq(oauthStates.provider, provider),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, sql`now()`),
      ),
    )
    .returning({ redirectUri: oauthStates.redirectUri });
  if (!row) {
    throw new AppError(
      'INVALID_OAUTH_STATE',
      'This Discord authorization has expired or was already used. Please connect again from your settings.',
    );
  }
  return row.redirectUri;
}

/** Remembers the identity this session just proved; a newer proof replaces an older one. */
export async function rememberVerification(
  db: DbOrTx,
  sessionId: string,
  provider: Provider,
  providerUserId: string,
  profile: VerifiedProfile,
): Promise<void> {
  await db.delete(connectionVerifications).where(lt(connectionVerifications.expiresAt, sql`now() - interval '1 day'`));
  const expiresAt = inSeconds(VERIFICATION_TTL_S);
  await db
    .insert(connectionVerifications)
    .values({ sessionId, provider, providerUserId, profile, expiresAt })
    .onConflictDoUpdate({
      target: [connectionVerifications.sessionId, connectionVerifications.provider],
      set: { providerUserId, profile, verifiedAt: sql`now()`, expiresAt },
    });
}

/** The profile this session proved for exactly this provider id in the last few minutes, or null. */
async function findVerification(
  db: DbOrTx,
  sessionId: string,
  provider: Provider,
  providerUserId: string,
): Promise<VerifiedProfile | null> {
  const [row] = await db
    .select({ profile: connectionVerifications.profile })
    .from(connectionVerifications)
    .where(
      and(
        eq(connectionVerifications.sessionId, sessionId),
        eq(connectionVerifications.provider, provider),
        eq(connectionVerifications.providerUserId, providerUserId),
        gt(connectionVerifications.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row?.profile ?? null;
}

/**
 * Records a Telegram payload as used. False when it was used before (a replay, possibly from another
 * session). Kept until the payload would be too old anyway.
 */
export async function markLoginProofUsed(db: DbOrTx, provider: Provider, hash: string, validUntil: Date): Promise<boolean> {
  await db.delete(usedLoginProofs).where(lt(usedLoginProofs.expiresAt, sql`now()`));
  const inserted = await db
    .insert(usedLoginProofs)
    .values({ proofHash: sha256(`${provider}:${hash.toLowerCase()}`), provider, expiresAt: validUntil })
    .onConflictDoNothing()
    .returning({ proofHash: usedLoginProofs.proofHash });
  return inserted.length === 1;
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const source = e.code === '23505' ? e : e.cause?.code === '23505' ? e.cause : null;
  return !!source && source.constraint === constraint;
}

function notVerified(provider: Provider): AppError {
  const name = provider === 'discord' ? 'Discord' : 'Telegram';
  return new AppError(
    'CONNECTION_NOT_VERIFIED',
    `This ${name} account was not verified for your session. Please connect again from your settings.`,
    { details: { provider } },
  );
}

const alreadyTaken = (provider: Provider) =>
  new AppError(
    'CONNECTION_TAKEN',
    `This ${provider === 'discord' ? 'Discord' : 'Telegram'} account is already connected to another user.`,
    {
      details: { provider },
    },
  );

// The users table belongs to the users module; only its `discord` and `telegram` columns are written here,
// and only through the two functions below.

/** Connects the Discord account this session verified, in one transaction. */
export function connectDiscord(db: Db, sessionId: string, userId: string, discordId: string): Promise<DiscordIdentity> {
  return db.transaction((tx) => linkDiscord(tx, sessionId, userId, discordId));
}

/**
 * Connects the Discord identity this session proved. The stored username and avatar are the ones Discord
 * answered, not what the browser sent. The unique index on the id makes "one Discord account, one user"
 * hold even when two users race.
 */
async function linkDiscord(db: DbOrTx, sessionId: string, userId: string, discordId: string): Promise<DiscordIdentity> {
  const profile = await findVerification(db, sessionId, 'discord', discordId);
  if (!profile) throw notVerified('discord');
  const identity: DiscordIdentity = {
    id: discordId,
    username: profile.username ?? '',
    avatar: profile.avatar ?? null,
    connectedAt: new Date().toISOString(),
  };
  noteUserChanging(userId);
  try {
    await db
      .update(users)
      .set({ discord: identity, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  } catch (err) {
    if (isUniqueViolation(err, 'users_discord_id_key')) throw alreadyTaken('discord');
    throw err;
  }
  await db
    .delete(connectionVerifications)
    .where(and(eq(connectionVerifications.sessionId, sessionId), eq(connectionVerifications.provider, 'discord')));
  return identity;
}

/** Connects the Telegram account this session verified, in one transaction. */
export function connectTelegram(db: Db, sessionId: string, userId: string, telegramId: string): Promise<TelegramIdentity> {
  return db.transaction((tx) => linkTelegram(tx, sessionId, userId, telegramId));
}

async function linkTelegram(db: DbOrTx, sessionId: string, userId: string, telegramId: string): Promise<TelegramIdentity> {
  const profile = await findVerification(db, sessionId, 'telegram', telegramId);
  if (!profile) throw notVerified('telegram');
  const identity: TelegramIdentity = {
    id: telegramId,
    username: profile.username ?? null,
    firstName: profile.firstName ?? null,
    lastName: profile.lastName ?? null,
    connectedAt: new Date().toISOString(),
  };
  noteUserChanging(userId);
  try {
    await db
      .update(users)
      .set({ telegram: identity, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  } catch (err) {
    if (isUniqueViolation(err, 'users_telegram_id_key')) throw alreadyTaken('telegram');
    throw err;
  }
  await db
    .delete(connectionVerifications)
    .where(and(eq(connectionVerifications.sessionId, sessionId), eq(connectionVerifications.provider, 'telegram')));
  return identity;
}

/** Removes a connection; disconnecting what is not connected is not an error (the end state is the same). */
export async function disconnect(db: DbOrTx, userId: string, provider: Provider): Promise<void> {
  const set = provider === 'discord' ? { discord: null } : { telegram: null };
  noteUserChanging(userId);
  await db
    .update(users)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/**
 * The account a chat notification goes to: the connected Telegram id (a private chat's id is the user's
 * id) or Discord id; null when the user has no such connection (or does not exist).
 */
export async function findChatAccountId(db: DbOrTx, userId: string, provider: Provider): Promise<string | null> {
  const column = provider === 'discord' ? users.discord : users.telegram;
  const [row] = await db.select({ identity: column }).from(users).where(eq(users.id, userId)).limit(1);
  const id = row?.identity?.id;
  return typeof id === 'string' && id ? id : null;
}
