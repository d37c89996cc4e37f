import type { LoginBody } from '#shared/schemas/auth.js';
import type {
  LoginSecondStepBody,
  StepUpFields,
  TwoFactorChallengeResponse,
  TwoFactorMethod,
  TwoFactorStatus,
} from '#shared/schemas/two-factor.js';
import type { DbOrTx } from '#server/db/client.js';
import type { RequestMeta } from '#server/modules/auth/auth.service.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import type { UserRow } from '#server/modules/users/users.tables.js';
import { SecretBox } from '#server/secret-box.js';
import { signInMethods, verifySignInCode, verifyStepUp } from './factor-in-request.js';
import { completeLogin, liveChallenge, loginChallenge } from './login-challenge.js';
import { adminReset, checkPassword, disableTwoFactor, enableTotp, regenerateRecoveryCodes, setupTotp } from './totp-settings.js';
import type { PasskeySecondStep, PasskeyStepUp, TwoFactorParts, TwoFactorServiceDeps } from './two-factor-parts.js';
import type { LoginChallengeRow } from './two-factor.tables.js';

export { methodsOf } from './factor-checks.js';
export { LOGIN_CHALLENGE_MAX_FAILURES, LOGIN_CHALLENGE_TTL_MS } from './login-challenge.js';
export { TWO_FACTOR_RATE_LIMITS } from './two-factor-parts.js';
export type { PasskeySecondStep, PasskeyStepUp, TwoFactorEvent, TwoFactorNotifier, TwoFactorServiceDeps } from './two-factor-parts.js';

/**
 * The authenticator app, recovery codes and the login challenge. Each concern lives in its own file and
 * is handed the service's parts: totp-settings.ts (app on and off, recovery codes, the staff reset),
 * factor-in-request.ts (step-up and the sign-in code beside a password), login-challenge.ts (the
 * sign-in's second step); factor-checks.ts holds the code checks they share, two-factor-parts.ts the
 * deps and types.
 */
export class TwoFactorService {
  private readonly parts: TwoFactorParts;

  constructor(private readonly deps: TwoFactorServiceDeps) {
    // Unreadable after a JWT_SECRET change: those users sign in with a recovery code (or an admin resets two-factor).
    const box = new SecretBox(deps.config.jwtSecret, 'olympus totp secrets v1');
    this.parts = { deps, box, passkeySecondStep: null, passkeyStepUp: null };
  }

  usePasskeySecondStep(check: PasskeySecondStep): void {
    this.parts.passkeySecondStep = check;
  }

  usePasskeyStepUp(check: PasskeyStepUp): void {
    this.parts.passkeyStepUp = check;
  }

  status(userId: string): Promise<TwoFactorStatus> {
    return twoFactorStatus(this.deps.database.db, userId);
  }

  /** The current password of a sensitive change (rate limited per account like every settings call). */
  confirmPassword(userId: string, currentPassword: string): Promise<UserRow> {
    return checkPassword(this.parts, userId, currentPassword);
  }

  // ---- Settings -----------------------------------------------------------------------------------------

  setupTotp(userId: string, currentPassword: string): Promise<{ secret: string; otpauthUrl: string }> {
    return setupTotp(this.parts, userId, currentPassword);
  }

  enableTotp(userId: string, code: string, options: { currentSessionId?: string; signOutOtherSessions?: boolean } = {}): Promise<string[]> {
    return enableTotp(this.parts, userId, code, options);
  }

  regenerateRecoveryCodes(userId: string, currentPassword: string): Promise<string[]> {
    return regenerateRecoveryCodes(this.parts, userId, currentPassword);
  }

  disable(userId: string, currentPassword: string): Promise<TwoFactorStatus> {
    return disableTwoFactor(this.parts, userId, currentPassword);
  }

  adminReset(actorId: string, userId: string, reason: string): Promise<TwoFactorStatus> {
    return adminReset(this.parts, actorId, userId, reason);
  }

  // ---- Step-up -------------------------------------------------------------------------------------------

  verifyStepUp(userId: string, sessionId: string, fields: StepUpFields): Promise<void> {
    return verifyStepUp(this.parts, userId, sessionId, fields);
  }

  // ---- Sign-in -------------------------------------------------------------------------------------------

  signInMethods(userId: string): Promise<TwoFactorMethod[]> {
    return signInMethods(this.parts, userId);
  }

  verifySignInCode(userId: string, code: string | undefined): Promise<void> {
    return verifySignInCode(this.parts, userId, code);
  }

  loginChallenge(user: UserRow, body: LoginBody): Promise<TwoFactorChallengeResponse | null> {
    return loginChallenge(this.parts, user, body);
  }

  liveChallenge(db: DbOrTx, token: string): Promise<LoginChallengeRow | null> {
    return liveChallenge(db, token);
  }

  completeLogin(body: LoginSecondStepBody, meta: RequestMeta): Promise<{ user: UserRow; token: string }> {
    return completeLogin(this.parts, body, meta);
  }
}
