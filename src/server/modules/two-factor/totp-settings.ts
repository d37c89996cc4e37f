import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TwoFactorStatus } from '#shared/schemas/two-factor.js';
import type { Tx } from '#server/db/client.js';
import { AppError, conflict, unauthorized } from '#server/errors.js';
import { verifyPassword } from '#server/modules/auth/passwords.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { findUserById, voidAccountLinks } from '#server/modules/users/users.service.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { twoFactorRow, WRONG_CODE } from './factor-checks.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { matchingStep, newTotpSecret, otpauthUrl } from './totp.js';
import { notify, TWO_FACTOR_RATE_LIMITS, type TwoFactorParts } from './two-factor-parts.js';
import { loginChallenges, passkeys, twoFactor, twoFactorRecoveryCodes } from './two-factor.tables.js';

/** The two-factor settings: the authenticator app on and off, recovery codes, and the staff reset. */

function wrongPassword(): AppError {
  return new AppError('WRONG_PASSWORD', 'Current password is incorrect', {
    details: { fields: { currentPassword: 'Current password is incorrect' } },
  });
}

/** The current password of a sensitive change (rate limited per account like every settings call). */
export async function checkPassword(parts: TwoFactorParts, userId: string, currentPassword: string): Promise<UserRow> {
  await parts.deps.rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.settingsPerAccount, userId);
  const user = await findUserById(parts.deps.database.db, userId);
  if (!user || user.disabledAt) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, currentPassword))) throw wrongPassword();
  return user;
}

/** A new secret waiting for its first code; two-factor stays off until enable. */
export async function setupTotp(
  parts: TwoFactorParts,
  userId: string,
  currentPassword: string,
): Promise<{ secret: string; otpauthUrl: string }> {
  const db = parts.deps.database.db;
  const user = await checkPassword(parts, userId, currentPassword);
  const existing = await twoFactorRow(db, userId);
  if (existing?.totpEnabledAt) throw conflict('The authenticator app is already on. Turn two-factor off first to set up another.');
  const secret = newTotpSecret();
  const sealed = parts.box.seal(secret);
  await db
    .insert(twoFactor)
    .values({ userId, totpPendingCiphertext: sealed })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { totpPendingCiphertext: sealed, updatedAt: new Date() } });
  return { secret, otpauthUrl: otpauthUrl(secret, user.username) };
}

/**
 * Turns the authenticator app on with a first code and answers 10 fresh recovery codes. With
 * `signOutOtherSessions` (the default of the API and the checked box of the web app) every session but
 * `currentSessionId` ends in the same transaction: a thief holding a session does not keep it.
 */
export async function enableTotp(
  parts: TwoFactorParts,
  userId: string,
  code: string,
  options: { currentSessionId?: string; signOutOtherSessions?: boolean } = {},
): Promise<string[]> {
  const { deps } = parts;
  const db = deps.database.db;
  await deps.rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.settingsPerAccount, userId);
  const existing = await twoFactorRow(db, userId);
  if (existing?.totpEnabledAt) throw conflict('The authenticator app is already on.');
  const pending = existing?.totpPendingCiphertext ? parts.box.open(existing.totpPendingCiphertext) : null;
  if (!pending) throw new AppError('SETUP_REQUIRED', 'Start the setup first: confirm your password to get a new secret.');
  const step = matchingStep(pending, code);
  if (step === null) {
    throw new AppError('INVALID_TWO_FACTOR_CODE', WRONG_CODE, { details: { fields: { code: WRONG_CODE } } });
  }
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(twoFactor)
      .set({
        totpSecretCiphertext: existing!.totpPendingCiphertext,
        totpPendingCiphertext: null,
        totpEnabledAt: new Date(),
        totpLastStep: step,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(twoFactor.userId, userId),
          isNull(twoFactor.totpEnabledAt),
          eq(twoFactor.totpPendingCiphertext, existing!.totpPendingCiphertext!),
        ),
      )
      .returning({ userId: twoFactor.userId });
    if (!updated) throw conflict('The authenticator app was set up meanwhile. Reload the page.');
    await replaceRecoveryCodes(tx, userId, codes);
    if (options.signOutOtherSessions && options.currentSessionId) {
      if (!deps.sessions) throw new Error('enableTotp cannot end other sessions without the session store');
      await deps.sessions.revokeAllForUser(tx, userId, options.currentSessionId);
    }
  });
  noteUserChanging(userId);
  notify(parts, { type: 'two-factor.enabled', userId });
  return codes;
}

async function replaceRecoveryCodes(tx: Tx, userId: string, codes: string[]): Promise<void> {
  noteUserChanging(userId);
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })));
}

export async function regenerateRecoveryCodes(parts: TwoFactorParts, userId: string, currentPassword: string): Promise<string[]> {
  const db = parts.deps.database.db;
  await checkPassword(parts, userId, currentPassword);
  const existing = await twoFactorRow(db, userId);
  if (!existing?.totpEnabledAt) throw conflict('Turn on the authenticator app first: recovery codes come with it.');
  const codes = newRecoveryCodes();
  await db.transaction((tx) => replaceRecoveryCodes(tx, userId, codes));
  return codes;
}

/**
 * Turns two-factor off with the password. The second factor was checked before, by the route's step-up
 * check (`verifyStepUp`, decision 0205). Passkeys stay.
 */
export async function disableTwoFactor(parts: TwoFactorParts, userId: string, currentPassword: string): Promise<TwoFactorStatus> {
  const db = parts.deps.database.db;
  await checkPassword(parts, userId, currentPassword);
  const existing = await twoFactorRow(db, userId);
  if (!existing?.totpEnabledAt) throw conflict('Two-factor is not on.');
  await db.transaction((tx) => turnOff(tx, userId));
  noteUserChanging(userId);
  notify(parts, { type: 'two-factor.disabled', userId, byAdmin: false });
  return twoFactorStatus(db, userId);
}

async function turnOff(tx: Tx, userId: string): Promise<void> {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  // A sign-in waiting for its second step cannot finish once two-factor is off.
  await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
}

/**
 * Staff console: an admin turns off a user's two-factor after checking who they are (authenticator app,
 * recovery codes and passkeys: the person lost them), with a reason, in the audit log.
 */
export async function adminReset(parts: TwoFactorParts, actorId: string, userId: string, reason: string): Promise<TwoFactorStatus> {
  const db = parts.deps.database.db;
  const actor = await findUserById(db, actorId);
  const target = await findUserById(db, userId);
  if (!actor) throw unauthorized();
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  await db.transaction(async (tx) => {
    const before = await twoFactorStatus(tx, userId);
    await turnOff(tx, userId);
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    // Staff changed how the account signs in: its outstanding one-time links stop working (decision 0200).
    await tx
      .update(users)
      .set({ ...voidAccountLinks(), updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    await recordAudit(tx, {
      actor: { id: actor.id, username: actor.username },
      action: 'user.two_factor_reset',
      targetType: 'user',
      targetId: userId,
      before,
      after: { totp: false, passkeys: 0, recoveryCodesLeft: 0 },
      reason,
    });
  });
  noteUserChanging(userId);
  notify(parts, { type: 'two-factor.disabled', userId, byAdmin: true });
  return twoFactorStatus(db, userId);
}
