import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { TwoFactorMethod, TwoFactorStatus } from '#shared/schemas/two-factor.js';
import type { DbOrTx } from '#server/db/client.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import type { SecretBox } from '#server/secret-box.js';
import { hashRecoveryCode } from './recovery-codes.js';
import { matchingStep } from './totp.js';
import { twoFactor, twoFactorRecoveryCodes } from './two-factor.tables.js';

/** The checks of one second factor that sign-in, step-up and the settings share. */

export const WRONG_CODE = 'That code is not right. Check your authenticator app and try again.';
const REUSED_CODE = 'That code has already been used. Wait for the next code in your authenticator app.';
const WRONG_RECOVERY = 'That recovery code is not valid or has already been used.';

export type FactorCheck = { ok: true; recoveryUsed: boolean } | { ok: false; message: string };

/** The second factors an account can answer with, as `methods` of a challenge or a step-up refusal. */
export function methodsOf(status: TwoFactorStatus): TwoFactorMethod[] {
  const methods: TwoFactorMethod[] = status.totp ? ['totp', 'recovery'] : [];
  if (status.passkeys > 0) methods.push('passkey');
  return methods;
}

export async function twoFactorRow(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/**
 * A code of the current step (±1): accepted once. The step is recorded in the same statement that checks
 * it is newer than the last accepted one, so a replay (even a parallel one) is refused.
 */
export async function acceptTotp(box: SecretBox, tx: DbOrTx, userId: string, code: string): Promise<FactorCheck> {
  const row = await twoFactorRow(tx, userId);
  const secret = row?.totpEnabledAt && row.totpSecretCiphertext ? box.open(row.totpSecretCiphertext) : null;
  if (!secret) return { ok: false, message: WRONG_CODE };
  const step = matchingStep(secret, code);
  if (step === null) return { ok: false, message: WRONG_CODE };
  const [accepted] = await tx
    .update(twoFactor)
    .set({ totpLastStep: step, updatedAt: new Date() })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.totpLastStep), lt(twoFactor.totpLastStep, step))))
    .returning({ userId: twoFactor.userId });
  return accepted ? { ok: true, recoveryUsed: false } : { ok: false, message: REUSED_CODE };
}

export async function spendRecoveryCode(tx: DbOrTx, userId: string, code: string): Promise<FactorCheck> {
  noteUserChanging(userId);
  const [spent] = await tx
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(userId, code)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return spent ? { ok: true, recoveryUsed: true } : { ok: false, message: WRONG_RECOVERY };
}
