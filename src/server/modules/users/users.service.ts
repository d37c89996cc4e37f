import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Locale, Role } from '#shared/constants.js';
import type { User } from '#shared/schemas/auth.js';
import type { DbOrTx } from '#server/db/client.js';
import { conflict } from '#server/errors.js';
import { users, type UserRow } from './users.tables.js';
import { noteUserChanging } from './user-read-cache.js';

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
}

/** The user as the API shows it (docs/product.md#browser-state: `_id`, role, subroles, credits...). */
export function toUserDto(row: UserRow): User {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    role: row.role as Role,
    subroles: row.subroles,
    credits: row.creditsCents / 100,
    discord: row.discord ?? null,
    telegram: row.telegram ?? null,
    onboardingCompleted: row.onboardingCompleted,
    referralCode: row.referralCode,
    createdAt: row.createdAt.toISOString(),
    locale: (row.locale as Locale | null) ?? null,
  };
}

function prepareFindUserById(db: DbOrTx) {
  // Unnamed (''): the SQL text is built once, and nothing is left behind in the server session, which
  // the embedded database shares between its connections.
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('');
}
/** Every authenticated request reads its user: the query is built once per database handle, not per call. */
const findUserByIdQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareFindUserById>>();

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  let query = findUserByIdQueries.get(db);
  if (!query) {
    query = prepareFindUserById(db);
    findUserByIdQueries.set(db, query);
  }
  const [row] = await query.execute({ id });
  return row ?? null;
}

/** The language the account reads its mail, notices and chat messages in (docs/decisions/0328); null is English. */
export async function findUserLocale(db: DbOrTx, id: string): Promise<Locale | null> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, id)).limit(1);
  return (row?.locale as Locale | null | undefined) ?? null;
}

/** By username or email, case-insensitively. */
export async function findUserByLogin(db: DbOrTx, login: string): Promise<UserRow | null> {
  const needle = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${needle} OR lower(${users.email}) = ${needle}`)
    .limit(1);
  return row ?? null;
}

export async function findUserByReferralCode(db: DbOrTx, code: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.referralCode, code.toUpperCase())).limit(1);
  return row ?? null;
}

function uniqueViolation(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const source = e.code === '23505' ? e : e.cause?.code === '23505' ? e.cause : null;
  return source ? (source.constraint ?? 'unique') : null;
}

export interface CreateUserInput {
  username: string;
  email: string;
  passwordHash: string;
  role?: Role;
  referredBy?: string | null;
}

/**
 * Inserts a user. A taken username or email answers 409 with the field, so the form can say which.
 * Referral codes are random; the rare collision is retried.
 */
export async function createUser(db: DbOrTx, input: CreateUserInput): Promise<UserRow> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const [row] = await db
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          passwordHash: input.passwordHash,
          role: input.role ?? 'user',
          // Staff accounts (made with the CLI) never see the customer onboarding (docs/decisions/0236).
          onboardingCompleted: (input.role ?? 'user') !== 'user',
          referralCode: newReferralCode(),
          referredBy: input.referredBy ?? null,
        })
        .returning();
      return row!;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'users_username_lower_key') {
        throw conflict('That username is taken', { fields: { username: 'That username is taken' } });
      }
      if (constraint === 'users_email_lower_key') {
        throw conflict('An account with that email already exists', {
          fields: { email: 'An account with that email already exists' },
        });
      }
      if (constraint === 'users_referral_code_key') continue;
      throw err;
    }
  }
  throw new Error('could not allocate a referral code');
}

export async function setOnboardingCompleted(db: DbOrTx, userId: string, completed: boolean): Promise<UserRow | null> {
  noteUserChanging(userId);
  const [row] = await db
    .update(users)
    .set({ onboardingCompleted: completed, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

/** Stores the language the person chose (decision 0326); the caller has validated it against LOCALES. */
export async function setUserLocale(db: DbOrTx, userId: string, locale: Locale): Promise<UserRow | null> {
  noteUserChanging(userId);
  const [row] = await db
    .update(users)
    .set({ locale, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

/**
 * The column values that void every outstanding one-time link of the account (decision 0200): spread into
 * the same UPDATE that makes the change (a password reset or change, a confirmed change of address,
 * disabling, a staff reset of two-factor), so both commit or neither does.
 */
export function voidAccountLinks() {
  return { securityStamp: sql`${users.securityStamp} + 1` };
}

/**
 * Stores a password hash. `changed`: a new password, which voids the account's outstanding links;
 * `rehashed`: the same password under new hashing parameters (at sign-in), which changes nothing else.
 */
export async function setPasswordHash(db: DbOrTx, userId: string, passwordHash: string, kind: 'changed' | 'rehashed'): Promise<void> {
  noteUserChanging(userId);
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()`, ...(kind === 'changed' ? voidAccountLinks() : {}) })
    .where(eq(users.id, userId));
}

export async function setRole(db: DbOrTx, userId: string, role: Role): Promise<void> {
  noteUserChanging(userId);
  await db
    .update(users)
    .set({ role, ...(role !== 'user' ? { onboardingCompleted: true } : {}), updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
