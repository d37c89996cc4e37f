import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { LoginBody } from '#shared/schemas/auth.js';
import type { LoginSecondStepBody, TwoFactorChallengeResponse } from '#shared/schemas/two-factor.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { AppError, forbidden, unauthorized } from '#server/errors.js';
import type { RequestMeta } from '#server/modules/auth/auth.service.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import { RATE_LIMITS } from '#server/modules/rate-limit/rate-limit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { UserRow } from '#server/modules/users/users.tables.js';
import { acceptTotp, methodsOf, spendRecoveryCode, WRONG_CODE, type FactorCheck } from './factor-checks.js';
import { notify, TWO_FACTOR_RATE_LIMITS, type TwoFactorParts } from './two-factor-parts.js';
import { loginChallenges, type LoginChallengeRow } from './two-factor.tables.js';

/** The sign-in's second step: the challenge a correct password opens, and the answer that completes it. */

/** decision 0140: a login challenge lives 5 minutes and dies after 5 wrong codes. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60_000;
export const LOGIN_CHALLENGE_MAX_FAILURES = 5;

const CHALLENGE_GONE = 'This sign-in has expired. Enter your password again.';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** After a correct password: a challenge when the authenticator app is on, otherwise null (sign in at once). */
export async function loginChallenge(parts: TwoFactorParts, user: UserRow, body: LoginBody): Promise<TwoFactorChallengeResponse | null> {
  const db = parts.deps.database.db;
  const status = await twoFactorStatus(db, user.id);
  if (!status.totp) return null;
  const challenge = randomBytes(32).toString('base64url');
  // Old challenges go as new ones come, so abandoned sign-ins never pile up.
  await db.delete(loginChallenges).where(sql`${loginChallenges.expiresAt} < now() - interval '1 hour'`);
  await db.insert(loginChallenges).values({
    tokenHash: sha256(challenge),
    userId: user.id,
    rememberMe: body.rememberMe,
    guestId: body.guestId ?? null,
    expiresAt: new Date(Date.now() + LOGIN_CHALLENGE_TTL_MS),
  });
  return { twoFactorRequired: true, challenge, methods: methodsOf(status) };
}

/** The live challenge behind a token, or null (unknown, expired, used or dead after 5 wrong codes). */
export async function liveChallenge(db: DbOrTx, token: string): Promise<LoginChallengeRow | null> {
  const [row] = await db
    .select()
    .from(loginChallenges)
    .where(eq(loginChallenges.tokenHash, sha256(token)))
    .limit(1);
  if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now() || row.failedAttempts >= LOGIN_CHALLENGE_MAX_FAILURES) return null;
  return row;
}

/** POST /api/login/2fa: the second step, answering what login answers (`{ user, token }`). */
export async function completeLogin(
  parts: TwoFactorParts,
  body: LoginSecondStepBody,
  meta: RequestMeta,
): Promise<{ user: UserRow; token: string }> {
  const { deps } = parts;
  const db = deps.database.db;
  const { rateLimiter } = deps;
  await rateLimiter.consume(RATE_LIMITS.loginPerIp, meta.ip);
  const challenge = await liveChallenge(db, body.challenge);
  if (!challenge) throw unauthorized(CHALLENGE_GONE, 'CHALLENGE_EXPIRED');
  // Counted before the check, cleared by a success: a burst of guesses cannot all pass an earlier check.
  await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, challenge.userId);
  const user = await findUserById(db, challenge.userId);
  if (!user) throw unauthorized(CHALLENGE_GONE, 'CHALLENGE_EXPIRED');
  if (user.disabledAt) throw forbidden('This account is disabled. Contact support.');

  const outcome = await db.transaction(async (tx) => {
    // Claim the challenge first: the row stays locked until this transaction ends, so two answers to
    // one challenge are taken one after the other and only one can succeed.
    const [claimed] = await tx
      .update(loginChallenges)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(loginChallenges.id, challenge.id),
          isNull(loginChallenges.usedAt),
          lt(loginChallenges.failedAttempts, LOGIN_CHALLENGE_MAX_FAILURES),
          gt(loginChallenges.expiresAt, sql`now()`),
        ),
      )
      .returning();
    if (!claimed) return { kind: 'gone' as const };
    const check = await checkFactor(parts, tx, user.id, body);
    if (!check.ok) {
      const [after] = await tx
        .update(loginChallenges)
        .set({ usedAt: null, failedAttempts: sql`${loginChallenges.failedAttempts} + 1` })
        .where(eq(loginChallenges.id, challenge.id))
        .returning({ failedAttempts: loginChallenges.failedAttempts });
      return {
        kind: 'wrong' as const,
        message: check.message,
        attemptsLeft: LOGIN_CHALLENGE_MAX_FAILURES - (after?.failedAttempts ?? LOGIN_CHALLENGE_MAX_FAILURES),
      };
    }
    const signedIn = await deps.auth.startUserSession(
      tx,
      user,
      { rememberMe: claimed.rememberMe, guestId: claimed.guestId ?? undefined },
      meta,
    );
    return { kind: 'ok' as const, signedIn, recoveryUsed: check.recoveryUsed };
  });

  if (outcome.kind === 'gone') throw unauthorized(CHALLENGE_GONE, 'CHALLENGE_EXPIRED');
  if (outcome.kind === 'wrong') {
    if (outcome.attemptsLeft <= 0) throw unauthorized(`Too many wrong codes. ${CHALLENGE_GONE}`, 'CHALLENGE_EXPIRED');
    throw new AppError('INVALID_TWO_FACTOR_CODE', outcome.message, { details: { attemptsLeft: outcome.attemptsLeft } });
  }
  await rateLimiter.reset(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, user.id);
  if (outcome.recoveryUsed) {
    const { recoveryCodesLeft } = await twoFactorStatus(db, user.id);
    notify(parts, { type: 'two-factor.recovery-code-used', userId: user.id, codesLeft: recoveryCodesLeft });
  }
  await deps.auth.afterSignIn(user, meta);
  return outcome.signedIn;
}

async function checkFactor(parts: TwoFactorParts, tx: Tx, userId: string, body: LoginSecondStepBody): Promise<FactorCheck> {
  if (body.code !== undefined) {
    const digits = body.code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) return { ok: false, message: 'Enter the 6-digit code from your authenticator app.' };
    return acceptTotp(parts.box, tx, userId, digits);
  }
  if (body.recoveryCode !== undefined) return spendRecoveryCode(tx, userId, body.recoveryCode);
  if (body.passkey !== undefined && parts.passkeySecondStep) {
    return (await parts.passkeySecondStep(tx, userId, body.passkey))
      ? { ok: true, recoveryUsed: false }
      : { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
  }
  return { ok: false, message: WRONG_CODE };
}
