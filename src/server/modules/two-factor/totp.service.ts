import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { LoginBody } from '#shared/schemas/auth.js';
import type {
  LoginSecondStepBody,
  StepUpFields,
  TwoFactorChallengeResponse,
  TwoFactorMethod,
  TwoFactorStatus,
} from '#shared/schemas/two-factor.js';
import type { Config } from '#server/config.js';
import type { Database, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, conflict, forbidden, unauthorized } from '#server/errors.js';
import type { AuthService, RequestMeta } from '#server/modules/auth/auth.service.js';
import type { SessionStore } from '#server/modules/auth/sessions.service.js';
import { verifyPassword } from '#server/modules/auth/passwords.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { RATE_LIMITS, type RateLimiter, type RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { findUserById, voidAccountLinks } from '#server/modules/users/users.service.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { SecretBox } from '#server/secret-box.js';
import { matchingStep, newTotpSecret, otpauthUrl } from './totp.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import { loginChallenges, passkeys, twoFactor, twoFactorRecoveryCodes, type LoginChallengeRow } from './two-factor.tables.js';

/** decision 0140: a login challenge lives 5 minutes and dies after 5 wrong codes. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60_000;
export const LOGIN_CHALLENGE_MAX_FAILURES = 5;

export const TWO_FACTOR_RATE_LIMITS = {
  /** Second-step attempts per account, counted before the check and cleared by a success, like wrong passwords. */
  secondStepFailuresPerAccount: { name: 'login-2fa-fail:account', limit: 10, windowSeconds: 15 * 60 },
  /** Password and code checks in the two-factor settings. */
  settingsPerAccount: { name: '2fa-settings:account', limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

const CHALLENGE_GONE = 'This sign-in has expired. Enter your password again.';
const WRONG_CODE = 'That code is not right. Check your authenticator app and try again.';
const REUSED_CODE = 'That code has already been used. Wait for the next code in your authenticator app.';
const WRONG_RECOVERY = 'That recovery code is not valid or has already been used.';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function wrongPassword(): AppError {
  return new AppError('WRONG_PASSWORD', 'Current password is incorrect', {
    details: { fields: { currentPassword: 'Current password is incorrect' } },
  });
}

/** Checks a passkey answer as the second step of a sign-in (passkeys.service.ts). */
export type PasskeySecondStep = (tx: Tx, userId: string, response: NonNullable<LoginSecondStepBody['passkey']>) => Promise<boolean>;
/** Checks a passkey answer to a step-up challenge of this session (passkeys.service.ts). */
export type PasskeyStepUp = (
  tx: Tx,
  userId: string,
  sessionId: string,
  response: NonNullable<StepUpFields['twoFactorAssertion']>,
) => Promise<boolean>;

/** The second factors an account can answer with, as `methods` of a challenge or a step-up refusal. */
export function methodsOf(status: TwoFactorStatus): TwoFactorMethod[] {
  const methods: TwoFactorMethod[] = status.totp ? ['totp', 'recovery'] : [];
  if (status.passkeys > 0) methods.push('passkey');
  return methods;
}

function stepUpRequiredMessage(methods: TwoFactorMethod[]): string {
  const ways = [
    ...(methods.includes('totp') ? ['a code from your authenticator app or a recovery code'] : []),
    ...(methods.includes('passkey') ? ['a passkey'] : []),
  ];
  return `Two-factor sign-in is on for this account: confirm this change with ${ways.join(' or ')}.`;
}

/** Where the notification mails of decision 0130 go once mail exists (decision 0140). */
export type TwoFactorEvent =
  | { type: 'two-factor.enabled'; userId: string }
  | { type: 'two-factor.disabled'; userId: string; byAdmin: boolean }
  | { type: 'two-factor.recovery-code-used'; userId: string; codesLeft: number }
  | { type: 'passkey.added'; userId: string; name: string };
export type TwoFactorNotifier = (event: TwoFactorEvent) => void;

export interface TwoFactorServiceDeps {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  auth: AuthService;
  /** The security notices (mail, two-factor.routes.ts). Never awaited, never fails the action. */
  notify?: TwoFactorNotifier;
  /** Ends the other sessions when the authenticator app is turned on (decision 0206). */
  sessions?: SessionStore;
}

type FactorCheck = { ok: true; recoveryUsed: boolean } | { ok: false; message: string };

export class TwoFactorService {
  private readonly box: SecretBox;
  private passkeySecondStep: PasskeySecondStep | null = null;
  private passkeyStepUp: PasskeyStepUp | null = null;

  constructor(private readonly deps: TwoFactorServiceDeps) {
    // Unreadable after a JWT_SECRET change: those users sign in with a recovery code (or an admin resets two-factor).
    this.box = new SecretBox(deps.config.jwtSecret, 'olympus totp secrets v1');
  }

  usePasskeySecondStep(check: PasskeySecondStep): void {
    this.passkeySecondStep = check;
  }

  usePasskeyStepUp(check: PasskeyStepUp): void {
    this.passkeyStepUp = check;
  }

  private get db() {
    return this.deps.database.db;
  }

  private notify(event: TwoFactorEvent): void {
    try {
      this.deps.notify?.(event);
    } catch {
      // A notification never undoes or fails the action it reports.
    }
  }

  status(userId: string): Promise<TwoFactorStatus> {
    return twoFactorStatus(this.db, userId);
  }

  private async row(db: DbOrTx, userId: string) {
    const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
    return row ?? null;
  }

  /** The current password of a sensitive change (rate limited per account like every settings call). */
  confirmPassword(userId: string, currentPassword: string): Promise<UserRow> {
    return this.checkPassword(userId, currentPassword);
  }

  private async checkPassword(userId: string, currentPassword: string): Promise<UserRow> {
    await this.deps.rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.settingsPerAccount, userId);
    const user = await findUserById(this.db, userId);
    if (!user || user.disabledAt) throw unauthorized();
    if (!(await verifyPassword(user.passwordHash, currentPassword))) throw wrongPassword();
    return user;
  }

  // ---- Settings -----------------------------------------------------------------------------------------

  /** A new secret waiting for its first code; two-factor stays off until enable. */
  async setupTotp(userId: string, currentPassword: string): Promise<{ secret: string; otpauthUrl: string }> {
    const user = await this.checkPassword(userId, currentPassword);
    const existing = await this.row(this.db, userId);
    if (existing?.totpEnabledAt) throw conflict('The authenticator app is already on. Turn two-factor off first to set up another.');
    const secret = newTotpSecret();
    const sealed = this.box.seal(secret);
    await this.db
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
  async enableTotp(
    userId: string,
    code: string,
    options: { currentSessionId?: string; signOutOtherSessions?: boolean } = {},
  ): Promise<string[]> {
    await this.deps.rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.settingsPerAccount, userId);
    const existing = await this.row(this.db, userId);
    if (existing?.totpEnabledAt) throw conflict('The authenticator app is already on.');
    const pending = existing?.totpPendingCiphertext ? this.box.open(existing.totpPendingCiphertext) : null;
    if (!pending) throw new AppError('SETUP_REQUIRED', 'Start the setup first: confirm your password to get a new secret.');
    const step = matchingStep(pending, code);
    if (step === null) {
      throw new AppError('INVALID_TWO_FACTOR_CODE', WRONG_CODE, { details: { fields: { code: WRONG_CODE } } });
    }
    const codes = newRecoveryCodes();
    await this.db.transaction(async (tx) => {
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
      await this.replaceRecoveryCodes(tx, userId, codes);
      if (options.signOutOtherSessions && options.currentSessionId) {
        if (!this.deps.sessions) throw new Error('enableTotp cannot end other sessions without the session store');
        await this.deps.sessions.revokeAllForUser(tx, userId, options.currentSessionId);
      }
    });
    noteUserChanging(userId);
    this.notify({ type: 'two-factor.enabled', userId });
    return codes;
  }

  private async replaceRecoveryCodes(tx: Tx, userId: string, codes: string[]): Promise<void> {
    noteUserChanging(userId);
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })));
  }

  async regenerateRecoveryCodes(userId: string, currentPassword: string): Promise<string[]> {
    await this.checkPassword(userId, currentPassword);
    const existing = await this.row(this.db, userId);
    if (!existing?.totpEnabledAt) throw conflict('Turn on the authenticator app first: recovery codes come with it.');
    const codes = newRecoveryCodes();
    await this.db.transaction((tx) => this.replaceRecoveryCodes(tx, userId, codes));
    return codes;
  }

  /**
   * Turns two-factor off with the password. The second factor was checked before, by the route's step-up
   * check (`verifyStepUp`, decision 0205). Passkeys stay.
   */
  async disable(userId: string, currentPassword: string): Promise<TwoFactorStatus> {
    await this.checkPassword(userId, currentPassword);
    const existing = await this.row(this.db, userId);
    if (!existing?.totpEnabledAt) throw conflict('Two-factor is not on.');
    await this.db.transaction((tx) => this.turnOff(tx, userId));
    noteUserChanging(userId);
    this.notify({ type: 'two-factor.disabled', userId, byAdmin: false });
    return this.status(userId);
  }

  private async turnOff(tx: Tx, userId: string): Promise<void> {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    // A sign-in waiting for its second step cannot finish once two-factor is off.
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
  }

  /**
   * Staff console: an admin turns off a user's two-factor after checking who they are (authenticator app,
   * recovery codes and passkeys: the person lost them), with a reason, in the audit log.
   */
  async adminReset(actorId: string, userId: string, reason: string): Promise<TwoFactorStatus> {
    const actor = await findUserById(this.db, actorId);
    const target = await findUserById(this.db, userId);
    if (!actor) throw unauthorized();
    if (!target) throw new AppError('NOT_FOUND', 'User not found');
    await this.db.transaction(async (tx) => {
      const before = await twoFactorStatus(tx, userId);
      await this.turnOff(tx, userId);
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
    this.notify({ type: 'two-factor.disabled', userId, byAdmin: true });
    return this.status(userId);
  }

  // ---- Codes ---------------------------------------------------------------------------------------------

  /**
   * A code of the current step (±1): accepted once. The step is recorded in the same statement that checks
   * it is newer than the last accepted one, so a replay (even a parallel one) is refused.
   */
  private async acceptTotp(tx: DbOrTx, userId: string, code: string): Promise<FactorCheck> {
    const row = await this.row(tx, userId);
    const secret = row?.totpEnabledAt && row.totpSecretCiphertext ? this.box.open(row.totpSecretCiphertext) : null;
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

  private async spendRecoveryCode(tx: DbOrTx, userId: string, code: string): Promise<FactorCheck> {
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

  // ---- Step-up -------------------------------------------------------------------------------------------

  /**
   * The second factor of a sensitive change (decision 0205), called by the step-up check of every route
   * declared `stepUp`. Nothing to do when the account has neither the authenticator app nor a passkey.
   * Otherwise the request must carry a factor: a code of the app (accepted once, like at sign-in), a
   * recovery code (spent) or a passkey answer to this session's step-up challenge. Guesses count toward
   * the same per-account throttle as the sign-in second step.
   */
  async verifyStepUp(userId: string, sessionId: string, fields: StepUpFields): Promise<void> {
    const status = await this.status(userId);
    const methods = methodsOf(status);
    if (methods.length === 0) return;
    if (fields.twoFactorCode === undefined && fields.twoFactorAssertion === undefined) {
      throw new AppError('TWO_FACTOR_REQUIRED', stepUpRequiredMessage(methods), { details: { methods } });
    }
    const { rateLimiter } = this.deps;
    // Counted before the check, cleared by a success: the sign-in second step's scheme and counter.
    await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
    const check = await this.db.transaction(async (tx): Promise<FactorCheck> => {
      if (fields.twoFactorAssertion !== undefined) {
        if (!this.passkeyStepUp || !status.passkeys)
          return { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
        return (await this.passkeyStepUp(tx, userId, sessionId, fields.twoFactorAssertion))
          ? { ok: true, recoveryUsed: false }
          : { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
      }
      const code = fields.twoFactorCode ?? '';
      if (!status.totp) return { ok: false, message: 'This account has no authenticator app: confirm with a passkey.' };
      const digits = code.replace(/\s+/g, '');
      return /^\d{6}$/.test(digits) ? this.acceptTotp(tx, userId, digits) : this.spendRecoveryCode(tx, userId, code);
    });
    if (!check.ok) {
      const field = fields.twoFactorAssertion !== undefined ? 'twoFactorAssertion' : 'twoFactorCode';
      throw new AppError('INVALID_TWO_FACTOR_CODE', check.message, { details: { fields: { [field]: check.message }, methods } });
    }
    // A recovery code spent here sends no notice: that mail speaks of a sign-in, and the change itself
    // (address, password, two-factor off) sends its own.
    await rateLimiter.reset(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
  }

  // ---- Sign-in -------------------------------------------------------------------------------------------

  /** What a password sign-in asks as its second step: the app or a recovery code when the app is on (passkeys alone are not asked). */
  async signInMethods(userId: string): Promise<TwoFactorMethod[]> {
    const status = await this.status(userId);
    return status.totp ? ['totp', 'recovery'] : [];
  }

  /**
   * The sign-in's second step without a challenge, for a password checked in the same request (restoring
   * a closing account, decision 0255): required exactly when login would ask for it; a code of the app
   * (accepted once) or a recovery code (spent), on the sign-in step's per-account throttle.
   */
  async verifySignInCode(userId: string, code: string | undefined): Promise<void> {
    const methods = await this.signInMethods(userId);
    if (methods.length === 0) return;
    if (code === undefined) {
      throw new AppError(
        'TWO_FACTOR_REQUIRED',
        'Two-factor sign-in is on for this account: enter a code from your authenticator app or a recovery code.',
        { details: { methods } },
      );
    }
    const { rateLimiter } = this.deps;
    await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
    const digits = code.replace(/\s+/g, '');
    const check = await this.db.transaction((tx) =>
      /^\d{6}$/.test(digits) ? this.acceptTotp(tx, userId, digits) : this.spendRecoveryCode(tx, userId, code),
    );
    if (!check.ok)
      throw new AppError('INVALID_TWO_FACTOR_CODE', check.message, { details: { fields: { twoFactorCode: check.message }, methods } });
    await rateLimiter.reset(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, userId);
    if (check.recoveryUsed) {
      const { recoveryCodesLeft } = await this.status(userId);
      this.notify({ type: 'two-factor.recovery-code-used', userId, codesLeft: recoveryCodesLeft });
    }
  }

  /** After a correct password: a challenge when the authenticator app is on, otherwise null (sign in at once). */
  async loginChallenge(user: UserRow, body: LoginBody): Promise<TwoFactorChallengeResponse | null> {
    const status = await this.status(user.id);
    if (!status.totp) return null;
    const challenge = randomBytes(32).toString('base64url');
    // Old challenges go as new ones come, so abandoned sign-ins never pile up.
    await this.db.delete(loginChallenges).where(sql`${loginChallenges.expiresAt} < now() - interval '1 hour'`);
    await this.db.insert(loginChallenges).values({
      tokenHash: sha256(challenge),
      userId: user.id,
      rememberMe: body.rememberMe,
      guestId: body.guestId ?? null,
      expiresAt: new Date(Date.now() + LOGIN_CHALLENGE_TTL_MS),
    });
    return { twoFactorRequired: true, challenge, methods: methodsOf(status) };
  }

  /** The live challenge behind a token, or null (unknown, expired, used or dead after 5 wrong codes). */
  async liveChallenge(db: DbOrTx, token: string): Promise<LoginChallengeRow | null> {
    const [row] = await db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.tokenHash, sha256(token)))
      .limit(1);
    if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now() || row.failedAttempts >= LOGIN_CHALLENGE_MAX_FAILURES) return null;
    return row;
  }

  /** POST /api/login/2fa: the second step, answering what login answers (`{ user, token }`). */
  async completeLogin(body: LoginSecondStepBody, meta: RequestMeta): Promise<{ user: UserRow; token: string }> {
    const { rateLimiter } = this.deps;
    await rateLimiter.consume(RATE_LIMITS.loginPerIp, meta.ip);
    const challenge = await this.liveChallenge(this.db, body.challenge);
    if (!challenge) throw unauthorized(CHALLENGE_GONE, 'CHALLENGE_EXPIRED');
    // Counted before the check, cleared by a success: a burst of guesses cannot all pass an earlier check.
    await rateLimiter.consume(TWO_FACTOR_RATE_LIMITS.secondStepFailuresPerAccount, challenge.userId);
    const user = await findUserById(this.db, challenge.userId);
    if (!user) throw unauthorized(CHALLENGE_GONE, 'CHALLENGE_EXPIRED');
    if (user.disabledAt) throw forbidden('This account is disabled. Contact support.');

    const outcome = await this.db.transaction(async (tx) => {
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
      const check = await this.checkFactor(tx, user.id, body);
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
      const signedIn = await this.deps.auth.startUserSession(
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
      const { recoveryCodesLeft } = await this.status(user.id);
      this.notify({ type: 'two-factor.recovery-code-used', userId: user.id, codesLeft: recoveryCodesLeft });
    }
    await this.deps.auth.afterSignIn(user, meta);
    return outcome.signedIn;
  }

  private async checkFactor(tx: Tx, userId: string, body: LoginSecondStepBody): Promise<FactorCheck> {
    if (body.code !== undefined) {
      const digits = body.code.replace(/\s+/g, '');
      if (!/^\d{6}$/.test(digits)) return { ok: false, message: 'Enter the 6-digit code from your authenticator app.' };
      return this.acceptTotp(tx, userId, digits);
    }
    if (body.recoveryCode !== undefined) return this.spendRecoveryCode(tx, userId, body.recoveryCode);
    if (body.passkey !== undefined && this.passkeySecondStep) {
      return (await this.passkeySecondStep(tx, userId, body.passkey))
        ? { ok: true, recoveryUsed: false }
        : { ok: false, message: 'That passkey could not be checked. Try again or use a code.' };
    }
    return { ok: false, message: WRONG_CODE };
  }
}
