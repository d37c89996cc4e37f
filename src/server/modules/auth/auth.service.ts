import type { LoginBody, RegisterBody } from '#shared/schemas/auth.js';
import type { Config } from '#server/config.js';
import type { GuestLinker } from '#server/context.js';
import type { Database, Tx } from '#server/db/client.js';
import { AppError, badRequest, forbidden, unauthorized } from '#server/errors.js';
import { RATE_LIMITS, type RateLimiter } from '#server/modules/rate-limit/rate-limit.service.js';
import { createUser, findUserByLogin, findUserByReferralCode, findUserById, setPasswordHash } from '#server/modules/users/users.service.js';
import type { UserRow } from '#server/modules/users/users.tables.js';
import { hashPassword, isCommonPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords.js';
import { newGuestId, type SessionStore } from './sessions.service.js';
import { sessions } from './sessions.tables.js';
import { signSessionToken, verifySessionToken } from './tokens.js';
import { verifyTurnstileToken } from './turnstile.js';
import { eq } from 'drizzle-orm';
import type { TwoFactorChallengeResponse, TwoFactorMethod } from '#shared/schemas/two-factor.js';
import type { EmailFlows, PasswordResetStep } from './email-flows.service.js';

/**
 * Asked after a correct password: answers the second-step challenge when the account has two-factor on,
 * or null to sign in at once (decision 0140; the two-factor module installs it).
 */
export type SecondStepCheck = (user: UserRow, body: LoginBody) => Promise<TwoFactorChallengeResponse | null>;

/**
 * The second factor of a password check outside the sign-in challenge (restoring a closing account):
 * which methods the account would be asked for, and the check of a code (the two-factor module installs it).
 */
export interface SignInFactorCheck {
  methods(userId: string): Promise<TwoFactorMethod[]>;
  /** Throws 403 TWO_FACTOR_REQUIRED without a code when the authenticator app is on, 400 for a wrong one. */
  verify(userId: string, code: string | undefined): Promise<void>;
}

/** A sign-in to an account its owner closed: refused, saying when it will be erased and how to restore it. */
export async function accountClosingError(user: UserRow, factor: SignInFactorCheck | null): Promise<AppError> {
  const erasureAt = (user.erasureAt ?? new Date()).toISOString();
  const methods = factor ? await factor.methods(user.id) : [];
  return new AppError('ACCOUNT_CLOSING', `Your account is closing on ${erasureAt.slice(0, 10)}. Restore it to sign in.`, {
    details: { erasureAt, methods },
  });
}

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
  /** The caller's guest token (cookie or bearer), proof that a body guestId is theirs. */
  guestToken?: string | undefined;
  /** The browser's device id (request-meta.ts), remembered by the session. */
  deviceId?: string | undefined;
  /** The id is new: the browser had no device cookie (request-meta.ts `rememberDevice` sets it). */
  newDevice?: boolean;
}

export interface AuthServiceDeps {
  config: Config;
  database: Database;
  sessions: SessionStore;
  rateLimiter: RateLimiter;
  guestLinkers: GuestLinker[];
  /** Base URL of this server as it listens (for the sandboxed bot check). */
  selfUrl: () => string;
  /** Mail after registration, sign-in and password change (verification link, notices). */
  emailFlows?: EmailFlows;
}

const INVALID_CREDENTIALS = 'Invalid username or password';

export class AuthService {
  private secondStep: SecondStepCheck | null = null;
  private factorCheck: SignInFactorCheck | null = null;

  /** What registration also does inside its transaction, once the user exists (the referral programme's row). */
  private readonly registeredHooks: ((tx: Tx, user: UserRow) => Promise<void>)[] = [];

  constructor(private readonly deps: AuthServiceDeps) {}

  /** Adds a step to every registration's transaction, run after the user is created. */
  onRegistered(hook: (tx: Tx, user: UserRow) => Promise<void>): void {
    this.registeredHooks.push(hook);
  }

  /** Installs the two-factor check a password sign-in passes before it gets a session. */
  useSecondStep(check: SecondStepCheck): void {
    this.secondStep = check;
  }

  /** Installs what a password reset also does inside its transaction (the two-factor module: remove passkeys). */
  usePasswordResetStep(step: PasswordResetStep): void {
    this.deps.emailFlows?.useResetStep(step);
  }

  /** Installs the code check used where a password is checked outside the sign-in challenge. */
  useFactorCheck(check: SignInFactorCheck): void {
    this.factorCheck = check;
  }

  /** The installed factor check (null until the two-factor module is built: then no account has one). */
  get signInFactor(): SignInFactorCheck | null {
    return this.factorCheck;
  }

  private async checkBot(token: string, ip: string): Promise<void> {
    const { turnstile } = this.deps.config;
    await verifyTurnstileToken(turnstile, turnstile.apiBase ?? `${this.deps.selfUrl()}/sandbox/turnstile`, token, ip);
  }

  private async issueToken(user: { sub: string; sid: string; isGuest: boolean; role: string; expiresAt: Date }) {
    return signSessionToken(this.deps.config.jwtSecret, user);
  }

  /**
   * Attaches a live guest's data to the user, then ends the guest session (the guestId is spent). Only
   * with that guest's own token beside the guestId (docs/product.md#accounts: Guest-ID is trusted only with
   * its token): a guestId alone, seen by staff or in a log, must not hand over someone's tickets.
   */
  private async linkGuest(tx: Tx, guestId: string | undefined, userId: string, guestToken: string | undefined): Promise<void> {
    if (!guestId || !guestToken) return;
    const claims = verifySessionToken(this.deps.config.jwtSecret, guestToken);
    if (!claims || !claims.isGuest || claims.sub !== guestId) return;
    const guestSession = await this.deps.sessions.findActiveGuest(tx, guestId);
    if (!guestSession || guestSession.id !== claims.sid) return;
    for (const link of this.deps.guestLinkers) await link(tx, guestId, userId);
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.guestId, guestId));
    this.deps.sessions.forget(guestSession.id);
  }

  async startGuest(meta: RequestMeta) {
    await this.deps.rateLimiter.consume(RATE_LIMITS.guestPerIp, meta.ip);
    const guestId = newGuestId();
    const session = await this.deps.sessions.create(this.deps.database.db, {
      guestId,
      ip: meta.ip,
      ...(meta.userAgent ? { userAgent: meta.userAgent } : {}),
      ...(meta.deviceId ? { deviceId: meta.deviceId } : {}),
    });
    const token = await this.issueToken({
      sub: guestId,
      sid: session.id,
      isGuest: true,
      role: 'guest',
      expiresAt: session.expiresAt,
    });
    return { guestId, token, user: { _id: guestId, role: 'guest' as const, isGuest: true as const } };
  }

  async register(body: RegisterBody, meta: RequestMeta): Promise<{ user: UserRow; token: string }> {
    await this.deps.rateLimiter.consume(RATE_LIMITS.registerPerIp, meta.ip);
    await this.checkBot(body.turnstileToken, meta.ip);
    if (isCommonPassword(body.password)) {
      throw badRequest('This password is too common. Choose one that is harder to guess.', {
        fields: { password: 'This password is too common. Choose one that is harder to guess.' },
      });
    }
    const db = this.deps.database.db;
    let referredBy: string | null = null;
    if (body.referralCode) {
      const referrer = await findUserByReferralCode(db, body.referralCode);
      if (!referrer) throw badRequest('Unknown referral code', { fields: { referralCode: 'Unknown referral code' } });
      referredBy = referrer.id;
    }
    const passwordHash = await hashPassword(body.password);
    const registered = await db.transaction(async (tx) => {
      const user = await createUser(tx, { username: body.username, email: body.email, passwordHash, referredBy });
      for (const hook of this.registeredHooks) await hook(tx, user);
      return this.startUserSession(tx, user, { rememberMe: false, guestId: body.guestId }, meta);
    });
    await this.deps.emailFlows?.afterRegister(registered.user, meta);
    return registered;
  }

  async login(body: LoginBody, meta: RequestMeta): Promise<{ user: UserRow; token: string } | TwoFactorChallengeResponse> {
    const { rateLimiter } = this.deps;
    await rateLimiter.consume(RATE_LIMITS.loginPerIp, meta.ip);
    await this.checkBot(body.turnstileToken, meta.ip);

    const db = this.deps.database.db;
    const found = await findUserByLogin(db, body.username);
    // One counter per account, whether it is named by username or email (an unknown name counts on its own).
    // The attempt is counted before the password is checked, in one atomic statement, so a burst of
    // parallel guesses cannot all pass a check made before any of them is counted; a success clears it.
    const accountKey = found ? found.id : `name:${body.username.trim().toLowerCase()}`;
    await rateLimiter.consume(RATE_LIMITS.loginFailuresPerAccount, accountKey);
    const valid = found ? await verifyPassword(found.passwordHash, body.password) : await verifyAgainstDummy(body.password);
    if (!found || !valid) {
      // Same answer for an unknown user and a wrong password (docs/product.md#accounts).
      throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    if (found.disabledAt) throw forbidden('This account is disabled. Contact support.');
    await rateLimiter.reset(RATE_LIMITS.loginFailuresPerAccount, accountKey);
    // A closing account (decision 0255): the right password learns when it will be erased and may restore it.
    if (found.closingAt) throw await accountClosingError(found, this.factorCheck);
    if (needsRehash(found.passwordHash)) {
      await setPasswordHash(db, found.id, await hashPassword(body.password), 'rehashed');
    }

    // Two-factor on: no session yet, only a challenge for POST /api/login/2fa.
    const challenge = this.secondStep ? await this.secondStep(found, body) : null;
    if (challenge) return challenge;

    const signedIn = await db.transaction((tx) =>
      this.startUserSession(tx, found, { rememberMe: body.rememberMe, guestId: body.guestId }, meta),
    );
    await this.afterSignIn(found, meta);
    return signedIn;
  }

  /** After a sign-in has committed (password, second step or passkey): the new-device notice, when mail exists. */
  async afterSignIn(user: UserRow, meta: RequestMeta): Promise<void> {
    await this.deps.emailFlows?.afterSignIn(user, meta);
  }

  /**
   * A signed-in session for a user whose identity is proven (password, then the second step when on;
   * or a passkey): creates the session, moves the guest's data as login does, and signs the token.
   */
  async startUserSession(
    tx: Tx,
    user: UserRow,
    options: { rememberMe: boolean; guestId: string | undefined },
    meta: RequestMeta,
  ): Promise<{ user: UserRow; token: string }> {
    // Every way in (password, second step, passkey) passes here: a closing account gets no session.
    if (user.closingAt) throw await accountClosingError(user, this.factorCheck);
    const session = await this.deps.sessions.create(tx, {
      userId: user.id,
      rememberMe: options.rememberMe,
      ip: meta.ip,
      ...(meta.userAgent ? { userAgent: meta.userAgent } : {}),
      ...(meta.deviceId ? { deviceId: meta.deviceId } : {}),
    });
    await this.linkGuest(tx, options.guestId, user.id, meta.guestToken);
    const token = await this.issueToken({
      sub: user.id,
      sid: session.id,
      isGuest: false,
      role: user.role,
      expiresAt: session.expiresAt,
    });
    return { user, token };
  }

  /** A new token for the same session, whose expiry slides forward by its lifetime. */
  async refresh(sessionId: string, userId: string): Promise<string> {
    const db = this.deps.database.db;
    const user = await findUserById(db, userId);
    if (!user || user.disabledAt) throw unauthorized('Token refresh failed', 'REFRESH_FAILED');
    const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) {
      throw unauthorized('Token refresh failed', 'REFRESH_FAILED');
    }
    const lifetimeMs = row.rememberMe ? 30 * 86_400_000 : 86_400_000;
    const expiresAt = new Date(Date.now() + lifetimeMs);
    await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
    this.deps.sessions.forget(sessionId);
    return this.issueToken({ sub: user.id, sid: sessionId, isGuest: false, role: user.role, expiresAt });
  }

  async changePassword(
    userId: string,
    currentSessionId: string,
    currentPassword: string,
    newPassword: string,
    meta?: { ip: string },
  ): Promise<void> {
    await this.deps.rateLimiter.consume(RATE_LIMITS.passwordChangePerAccount, userId);
    const db = this.deps.database.db;
    const user = await findUserById(db, userId);
    if (!user) throw unauthorized();
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError('WRONG_PASSWORD', 'Current password is incorrect', {
        details: { fields: { currentPassword: 'Current password is incorrect' } },
      });
    }
    if (isCommonPassword(newPassword)) {
      throw badRequest('This password is too common. Choose one that is harder to guess.', {
        fields: { newPassword: 'This password is too common. Choose one that is harder to guess.' },
      });
    }
    const hash = await hashPassword(newPassword);
    await db.transaction(async (tx) => {
      await setPasswordHash(tx, userId, hash, 'changed');
      await this.deps.sessions.revokeAllForUser(tx, userId, currentSessionId);
    });
    await this.deps.emailFlows?.afterPasswordChange(userId, meta);
  }
}
