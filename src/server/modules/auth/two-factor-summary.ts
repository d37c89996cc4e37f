import { sql } from 'drizzle-orm';
import type { TwoFactorStatus } from '#shared/schemas/two-factor.js';
import type { DbOrTx } from '#server/db/client.js';
import { userScopedCache } from '#server/modules/users/user-read-cache.js';

// The account's second-factor summary lives with auth, which shows it on GET /api/auth/me: the two-factor
// module builds on auth, and this reads its tables with plain SQL, so nothing here imports it
// (decision 0221).

/** `user.twoFactor` of GET /api/auth/me, in one round trip. */
export async function twoFactorStatus(db: DbOrTx, userId: string): Promise<TwoFactorStatus> {
  const result = await db.execute<{ totp: boolean; passkeys: number; recovery: number }>(sql`
    SELECT
      EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND totp_enabled_at IS NOT NULL) AS totp,
      (SELECT count(*)::int FROM passkeys WHERE user_id = ${userId}) AS passkeys,
      (SELECT count(*)::int FROM two_factor_recovery_codes WHERE user_id = ${userId} AND used_at IS NULL) AS recovery
  `);
  const row = result.rows[0];
  return { totp: Boolean(row?.totp), passkeys: Number(row?.passkeys ?? 0), recoveryCodesLeft: Number(row?.recovery ?? 0) };
}

const cached = userScopedCache<TwoFactorStatus>();

/**
 * The summary /api/auth/me shows on every call, from a per-instance cache: every write to the
 * two-factor tables calls `noteUserChanging(userId)` first, and migration 0018's triggers tell the
 * other instances. Never used to decide a sign-in: that reads the tables.
 */
export function twoFactorStatusCached(db: DbOrTx, userId: string): Promise<TwoFactorStatus> {
  return cached.get(userId, (id) => twoFactorStatus(db, id)) as Promise<TwoFactorStatus>;
}

/** Whether the account has a second factor set up (REQUIRE_STAFF_2FA accepts an authenticator app or a passkey). */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const status = await twoFactorStatus(db, userId);
  return status.totp || status.passkeys > 0;
}
