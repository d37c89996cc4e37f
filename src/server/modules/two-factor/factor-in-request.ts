import type { StepUpFields, TwoFactorMethod } from '#shared/schemas/two-factor.js';
import { AppError } from '#server/errors.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import { acceptTotp, methodsOf, spendRecoveryCode, type FactorCheck } from './factor-checks.js';
import { notify, TWO_FACTOR_RATE_LIMITS, type TwoFactorParts } from './two-factor-parts.js';

/**
 * A second factor carried by the request itself, with no login challenge: the step-up check of a
 * sensitive change (decision 0205) and the sign-in code checked beside a password (decision 0255).
 */

function stepUpRequiredMessage(methods: TwoFactorMethod[]): string {
  const ways = [
    ...(methods.includes('totp') ? ['a code from your authenticator app or a recovery code'] : []),
    ...(methods.includes('passkey') ? ['a passkey'] : []),
  ];
  return `Two-factor sign-in is on for this account: confirm this change with ${ways.join(' or ')}.`;
}

/**
 * The second factor of a sensitive change (decision 0205), called by the step-up check of every route
 * declared `stepUp`. Nothing to do when the account has neither the authenticator app nor a passkey.
 * Otherwise the request must carry a factor: a code of the app (accepted once, like at sign-in), a
 * recovery code (spent) or a passkey answer to this session's step-up challenge. Guesses count toward
 * the same per-account throttle as the sign-in second step.
 */
export async function verifyStepUp(parts: TwoFactorParts, userId: string, sessionId: string, fields: StepUpFields): Promise<void> {
  const db = parts.deps.database.db;
  const status = await twoFactorStatus(db, userId);
  const methods = methodsOf(status);
  if (methods.length === 0) return;
  if (fields.twoFactorCode === undefined && fields.twoFactorAssertion === undefined) {
    throw new AppError('TWO_FACTOR_REQUIRED', stepUpRequiredMessage(methods), { details: { methods } });
  }
  const { rateLimiter } = parts.deps;
  // Counted before the check, cleared by a success: the sign-in second step's scheme and counter.
  await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
  const check = await db.transaction(async (tx): Promise<FactorCheck> => {
    if (fields.twoFactorAssertion !== undefined) {
      if (!parts.passkeyStepUp || !status.passkeys)
        return { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
      return (await parts.passkeyStepUp(tx, userId, sessionId, fields.twoFactorAssertion))
        ? { ok: true, recoveryUsed: false }
        : { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
    }
    const code = fields.twoFactorCode ?? '';
    if (!status.totp) return { ok: false, message: 'This account has no authenticator app: confirm with a passkey.' };
    const digits = code.replace(/\s+/g, '');
    return /^\d{6}$/.test(digits) ? acceptTotp(parts.box, tx, userId, digits) : spendRecoveryCode(tx, userId, code);
  });
  if (!check.ok) {
    const field = fields.twoFactorAssertion !== undefined ? 'twoFactorAssertion' : 'twoFactorCode';
    throw new AppError('INVALID_TWO_FACTOR_CODE', check.message, { details: { fields: { [field]: check.message }, methods } });
  }
  // A recovery code spent here sends no notice: that mail speaks of a sign-in, and the change itself
  // (address, password, two-factor off) sends its own.
  await rateLimiter.reset(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
}

/** What a password sign-in asks as its second step: the app or a recovery code when the app is on (passkeys alone are not asked). */
export async function signInMethods(parts: TwoFactorParts, userId: string): Promise<TwoFactorMethod[]> {
  const status = await twoFactorStatus(parts.deps.database.db, userId);
  return status.totp ? ['totp', 'recovery'] : [];
}

/**
 * The sign-in's second step without a challenge, for a password checked in the same request (restoring
 * a closing account, decision 0255): required exactly when login would ask for it; a code of the app
 * (accepted once) or a recovery code (spent), on the sign-in step's per-account throttle.
 */
export async function verifySignInCode(parts: TwoFactorParts, userId: string, code: string | undefined): Promise<void> {
  const methods = await signInMethods(parts, userId);
  if (methods.length === 0) return;
  if (code === undefined) {
    throw new AppError(
      'TWO_FACTOR_REQUIRED',
      'Two-factor sign-in is on for this account: enter a code from your authenticator app or a recovery code.',
      { details: { methods } },
    );
  }
  const { rateLimiter } = parts.deps;
  await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
  const digits = code.replace(/\s+/g, '');
  const check = await parts.deps.database.db.transaction((tx) =>
    /^\d{6}$/.test(digits) ? acceptTotp(parts.box, tx, userId, digits) : spendRecoveryCode(tx, userId, code),
  );
  if (!check.ok)
    throw new AppError('INVALID_TWO_FACTOR_CODE', check.message, { details: { fields: { twoFactorCode: check.message }, methods } });
  await rateLimiter.reset(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
  if (check.recoveryUsed) {
    const { recoveryCodesLeft } = await twoFactorStatus(parts.deps.database.db, userId);
    notify(parts, { type: 'two-factor.recovery-code-used', userId, codesLeft: recoveryCodesLeft });
  }
}
