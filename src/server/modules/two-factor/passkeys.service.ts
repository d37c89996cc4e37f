import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { passkeyBareHost, passkeyUnavailableReason, type Passkey } from '#shared/schemas/two-factor.js';
import type { Config } from '#server/config.js';
import type { Database, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '#server/errors.js';
import type { AuthService, RequestMeta } from '#server/modules/auth/auth.service.js';
import { RATE_LIMITS, type RateLimiter } from '#server/modules/rate-limit/rate-limit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { UserRow } from '#server/modules/users/users.tables.js';
import type { TwoFactorNotifier } from './totp.service.js';
import { passkeys, webauthnChallenges, type PasskeyRow } from './two-factor.tables.js';

/** WebAuthn challenges are single use and live 5 minutes. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;
const PASSKEY_FAILED = 'That passkey could not be used to sign in. Try again, or sign in with your password.';

type Purpose = 'register' | 'login';

export function toPasskeyDto(row: PasskeyRow): Passkey {
  return {
    _id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  };
}

export interface PasskeyServiceDeps {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  auth: AuthService;
  notify?: TwoFactorNotifier;
}

/**
 * Passkeys (decision 0140) with @simplewebauthn/server. The relying party is the host of PUBLIC_URL; browsers
 * refuse WebAuthn on a bare IP address, so there every call answers why instead of failing silently.
 */
export class PasskeyService {
  readonly rpId: string;
  readonly origin: string;
  /** Why passkeys cannot work on this deployment, or null. */
  readonly unavailableReason: string | null;

  constructor(private readonly deps: PasskeyServiceDeps) {
    const url = new URL(deps.config.publicUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
    this.unavailableReason = passkeyUnavailableReason(url.hostname);
  }

  private get db() {
    return this.deps.database.db;
  }

  private assertAvailable(): void {
    if (this.unavailableReason) {
      throw new AppError('PASSKEYS_UNAVAILABLE', this.unavailableReason, { details: { host: passkeyBareHost(this.rpId) } });
    }
  }

  private async storeChallenge(challenge: string, purpose: Purpose, userId: string | null): Promise<void> {
    // Expired ones go as new ones come, so the table never grows with abandoned attempts.
    await this.db.delete(webauthnChallenges).where(sql`${webauthnChallenges.expiresAt} < now() - interval '1 hour'`);
    await this.db
      .insert(webauthnChallenges)
      .values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + WEBAUTHN_CHALLENGE_TTL_MS) });
  }

  /** Spends a challenge once: true only for a live, unused challenge of this purpose and user. */
  private async claimChallenge(db: DbOrTx, challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
    const [row] = await db
      .update(webauthnChallenges)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, purpose),
          userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
          isNull(webauthnChallenges.usedAt),
          gt(webauthnChallenges.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: webauthnChallenges.id });
    return Boolean(row);
  }

  async list(userId: string): Promise<Passkey[]> {
    const rows = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
    return rows.map(toPasskeyDto);
  }

  async remove(userId: string, passkeyId: string): Promise<void> {
    const [row] = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (!row) throw notFound('Passkey not found');
    noteUserChanging(userId);
  }

  /** Removes every passkey of the account (a password reset that asked for it); answers how many went. */
  async removeAll(db: DbOrTx, userId: string): Promise<number> {
    const rows = await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
    if (rows.length > 0) noteUserChanging(userId);
    return rows.length;
  }

  /**
   * Options to create a passkey, for a session that has just proved the password (and the second factor
   * when two-factor is on: the route's step-up check). The challenge is bound to that session like a
   * step-up challenge (`challengeFor`), so a register call from any other session is refused.
   */
  async registrationOptions(userId: string, sessionId: string) {
    this.assertAvailable();
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized();
    const existing = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    if (existing.length >= MAX_PASSKEYS)
      throw badRequest(`You can keep at most ${MAX_PASSKEYS} passkeys. Remove one first.`, { maxPasskeys: MAX_PASSKEYS });
    const options = await generateRegistrationOptions({
      rpName: 'Olympus',
      rpID: this.rpId,
      userName: user.username,
      userID: new TextEncoder().encode(user.id),
      userDisplayName: user.username,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // Discoverable, so "Sign in with a passkey" works without a username.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      challenge: this.challengeFor('register', sessionId),
    });
    await this.storeChallenge(options.challenge, 'register', userId);
    return options;
  }

  /** Adds the passkey answering options this session asked for (`registrationOptions`). */
  async register(userId: string, sessionId: string, name: string, response: RegistrationResponseJSON): Promise<Passkey> {
    this.assertAvailable();
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: async (challenge) =>
          this.isChallengeOf('register', sessionId, challenge) && (await this.claimChallenge(this.db, challenge, 'register', userId)),
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
      });
    } catch {
      throw badRequest('The passkey could not be added: the request expired or was not valid. Try again.');
    }
    if (!verification.verified) throw badRequest('The passkey could not be added. Try again.');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    try {
      const [row] = await this.db
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
        })
        .returning();
      noteUserChanging(userId);
      try {
        this.deps.notify?.({ type: 'passkey.added', userId, name });
      } catch {
        // never fails the action
      }
      return toPasskeyDto(row!);
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code === '23505') throw badRequest('This passkey is already registered.');
      throw err;
    }
  }

  /**
   * Options for signing in with a passkey: discoverable (no list of credentials) for a passkey-only
   * sign-in, or the user's own passkeys when it answers the second step of a password sign-in.
   */
  async authenticationOptions(secondStepUserId: string | null) {
    this.assertAvailable();
    const allow = secondStepUserId
      ? (await this.db.select().from(passkeys).where(eq(passkeys.userId, secondStepUserId))).map((p) => ({
          id: p.credentialId,
          transports: p.transports as AuthenticatorTransport[],
        }))
      : undefined;
    if (allow && allow.length === 0) throw badRequest('This account has no passkey. Use a code instead.');
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'required',
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      ...(allow ? { allowCredentials: allow } : {}),
    });
    await this.storeChallenge(options.challenge, 'login', secondStepUserId);
    return options;
  }

  /** Verifies an assertion of one of `userId`'s passkeys (or any user's, when null); answers its owner or null. */
  private async verifyAssertion(
    db: DbOrTx,
    response: AuthenticationResponseJSON,
    userId: string | null,
    challengeAllowed: (challenge: string) => boolean = () => true,
  ): Promise<PasskeyRow | null> {
    const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1);
    if (!row || (userId !== null && row.userId !== userId)) return null;
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: async (challenge) => challengeAllowed(challenge) && (await this.claimChallenge(db, challenge, 'login', userId)),
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
          counter: row.counter,
          transports: row.transports as AuthenticatorTransport[],
        },
      });
    } catch {
      return null;
    }
    if (!verification.verified) return null;
    await db
      .update(passkeys)
      .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(passkeys.id, row.id));
    return row;
  }

  /**
   * A step-up challenge (decision 0205) and a registration challenge are bound to the session that asked
   * for them without a new column: 16 random bytes followed by the first 16 bytes of an HMAC of them, the
   * purpose and the session id under a key derived from the server secret. Stored like any challenge,
   * single use and 5 minutes; another session cannot answer it.
   */
  private sessionMac(purpose: 'step-up' | 'register', sessionId: string, nonce: Buffer): Buffer {
    // The step-up label predates registration challenges and stays as it was (challenges in flight at an upgrade).
    const label = purpose === 'step-up' ? 'olympus step-up challenge v1\0' : 'olympus passkey registration challenge v1\0';
    return createHmac('sha256', this.deps.config.jwtSecret)
      .update(label)
      .update(sessionId)
      .update('\0')
      .update(nonce)
      .digest()
      .subarray(0, 16);
  }

  private challengeFor(purpose: 'step-up' | 'register', sessionId: string): Uint8Array<ArrayBuffer> {
    const nonce = randomBytes(16);
    return new Uint8Array(Buffer.concat([nonce, this.sessionMac(purpose, sessionId, nonce)]));
  }

  private isChallengeOf(purpose: 'step-up' | 'register', sessionId: string, challenge: string): boolean {
    const bytes = Buffer.from(challenge, 'base64url');
    if (bytes.length !== 32) return false;
    return timingSafeEqual(bytes.subarray(16), this.sessionMac(purpose, sessionId, bytes.subarray(0, 16)));
  }

  /** POST /api/two-factor/step-up/passkey-options: options to confirm a sensitive change with one of the user's passkeys. */
  async stepUpOptions(userId: string, sessionId: string) {
    this.assertAvailable();
    const mine = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    if (mine.length === 0) throw badRequest('This account has no passkey. Use a code instead.');
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'required',
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      challenge: this.challengeFor('step-up', sessionId),
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    });
    await this.storeChallenge(options.challenge, 'login', userId);
    return options;
  }

  /** The step-up check's passkey answer: one of `userId`'s passkeys, signing a challenge of this session. */
  async verifyStepUp(tx: Tx, userId: string, sessionId: string, response: AuthenticationResponseJSON): Promise<boolean> {
    if (this.unavailableReason) return false;
    return (await this.verifyAssertion(tx, response, userId, (challenge) => this.isChallengeOf('step-up', sessionId, challenge))) !== null;
  }

  /** For POST /api/login/2fa {challenge, passkey}. */
  async verifySecondStep(tx: Tx, userId: string, response: AuthenticationResponseJSON): Promise<boolean> {
    if (this.unavailableReason) return false;
    return (await this.verifyAssertion(tx, response, userId)) !== null;
  }

  /** POST /api/login/passkey: a passkey alone signs in (it is both possession and, verified, the person). */
  async login(
    body: { response: AuthenticationResponseJSON; guestId?: string | undefined; rememberMe: boolean },
    meta: RequestMeta,
  ): Promise<{ user: UserRow; token: string }> {
    this.assertAvailable();
    await this.deps.rateLimiter.consume(RATE_LIMITS.loginPerIp, meta.ip);
    const owner = await this.verifyAssertion(this.db, body.response, null);
    if (!owner) throw unauthorized(PASSKEY_FAILED, 'PASSKEY_FAILED');
    const user = await findUserById(this.db, owner.userId);
    if (!user) throw unauthorized(PASSKEY_FAILED, 'PASSKEY_FAILED');
    if (user.disabledAt) throw forbidden('This account is disabled. Contact support.');
    const signedIn = await this.db.transaction((tx) =>
      this.deps.auth.startUserSession(tx, user, { rememberMe: body.rememberMe, guestId: body.guestId }, meta),
    );
    await this.deps.auth.afterSignIn(user, meta);
    return signedIn;
  }
}
