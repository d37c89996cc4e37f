import { translatorFor, type Translator } from '#server/i18n/translator.js';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { settingsPath } from '#shared/routes.js';
import type { Config } from '#server/config.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { Database, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, badRequest, conflict, unauthorized } from '#server/errors.js';
import { safeError, type MailService } from '#server/modules/mail/mail.service.js';
import { knownDevices } from './known-devices.tables.js';
import { emailChangeRequestedMail, emailChangedMail, confirmEmailChangeMail } from '#server/modules/mail/templates/email-change.js';
import { newDeviceMail } from '#server/modules/mail/templates/new-device.js';
import { passwordChangedMail } from '#server/modules/mail/templates/password-changed.js';
import { resetPasswordMail } from '#server/modules/mail/templates/reset-password.js';
import { verifyEmailMail } from '#server/modules/mail/templates/verify-email.js';
import type { RateLimiter, RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { findUserById, voidAccountLinks } from '#server/modules/users/users.service.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { consumeAccountToken, issueAccountToken, tokenError } from './account-tokens.js';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.js';
import type { SessionStore } from './sessions.service.js';

export const PASSWORD_RESET_TASK = 'password-reset-request';

export const EMAIL_RATE_LIMITS = {
  /** Asking for a reset link: per address (counted for unknown addresses too) and per IP. */
  forgotPerEmail: { name: 'forgot:email', limit: 3, windowSeconds: 60 * 60 },
  forgotPerIp: { name: 'forgot:ip', limit: 20, windowSeconds: 60 * 60 },
  resetPerIp: { name: 'reset:ip', limit: 30, windowSeconds: 15 * 60 },
  verifyPerIp: { name: 'verify:ip', limit: 60, windowSeconds: 15 * 60 },
  resendPerAccount: { name: 'resend-verification:account', limit: 3, windowSeconds: 15 * 60 },
  changeEmailPerAccount: { name: 'change-email:account', limit: 5, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export interface RequestInfo {
  ip: string;
  userAgent: string | undefined;
}

/** Runs inside a password reset's transaction, after the new password is set (AuthService.usePasswordResetStep). */
export type PasswordResetStep = (tx: Tx, userId: string, choice: { removePasskeys: boolean }) => Promise<void>;

export interface EmailFlowsDeps {
  config: Config;
  database: Database;
  sessions: SessionStore;
  rateLimiter: RateLimiter;
  mail: MailService;
  /** Where security changes are reported (their notice subscribes there, decision 0322). */
  events: DomainEvents;
  log: FastifyBaseLogger;
}

const when = (date = new Date()) => `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
/** `when()` in the reader's language (docs/decisions/0328); English as it was. */
const whenFor = (tr: Translator) => (tr.locale === 'en' ? when() : tr.dateTime(new Date()));

/** A short description of a user agent for a notice ("Chrome on Linux"). */
export function describeBrowser(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : /curl|node|undici|python|Go-http/i.test(userAgent)
              ? 'A program'
              : 'Unknown browser';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return os ? `${browser} on ${os}` : browser;
}

/**
 * The account flows that go through the user's mailbox (decision 0130): address verification, password
 * reset, change of address, and the security notices (password changed, new device). Every mail is
 * queued on the outbox; nothing here waits for SMTP.
 */
export class EmailFlows {
  constructor(private readonly deps: EmailFlowsDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Defines the background job that answers a reset request (so the request itself is the same for any address). */
  defineJobs(): void {
    this.deps.mail.defineTask(PASSWORD_RESET_TASK, (data) => this.sendResetLink(String(data.email ?? '')));
  }

  // ---- verification -------------------------------------------------------------------------------

  async queueVerification(db: DbOrTx, user: UserRow): Promise<void> {
    const token = await issueAccountToken(db, {
      userId: user.id,
      purpose: 'verify_email',
      email: user.email,
      supersede: false,
      securityStamp: user.securityStamp,
    });
    await this.deps.mail.queue(db, {
      userId: user.id,
      kind: 'verify_email',
      to: user.email,
      sensitive: true,
      mail: verifyEmailMail(translatorFor(user.locale), { username: user.username, url: this.deps.mail.link('/verify-email', { token }) }),
    });
  }

  /** After registration: the device is known, and the address gets its confirmation link. Never fails the registration. */
  async afterRegister(user: UserRow, info: RequestInfo): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await this.rememberDevice(tx, user.id, info.userAgent);
        await this.queueVerification(tx, user);
      });
    } catch (err) {
      this.deps.log.error({ err: safeError(err), userId: user.id }, 'verification mail could not be queued');
    }
  }

  async resendVerification(userId: string): Promise<void> {
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
    if (user.emailVerifiedAt) throw new AppError('ALREADY_VERIFIED', 'Your email address is already confirmed');
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.resendPerAccount, userId);
    await this.db.transaction((tx) => this.queueVerification(tx, user));
  }

  async verifyEmail(token: string, ip: string): Promise<void> {
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.verifyPerIp, ip);
    await this.db.transaction(async (tx) => {
      // Refused unless the account still uses the address the link went to, unchanged since (decision 0200).
      const spent = await consumeAccountToken(tx, 'verify_email', token);
      const user = await findUserById(tx, spent.userId);
      if (!user) throw tokenError('invalid');
      noteUserChanging(user.id);
      await tx
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
    });
  }

  // ---- password reset -----------------------------------------------------------------------------

  /**
   * The same work for every address: count the request, queue a job. Whether an account exists is
   * looked up by the job, so neither the answer nor its timing says anything about the address.
   */
  async forgotPassword(email: string, ip: string): Promise<void> {
    const normalized = email.trim().toLowerCase();
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.forgotPerIp, ip);
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.forgotPerEmail, createHash('sha256').update(normalized).digest('hex'));
    await this.deps.mail.runTask(PASSWORD_RESET_TASK, { email: normalized });
  }

  /** The job: a new reset link (older ones stop working) for the account with this address, if any. */
  async sendResetLink(email: string): Promise<void> {
    if (!email) return;
    const [user] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1);
    if (!user || user.disabledAt) return;
    await this.db.transaction(async (tx) => {
      const token = await issueAccountToken(tx, {
        userId: user.id,
        purpose: 'reset_password',
        email: user.email,
        supersede: true,
        securityStamp: user.securityStamp,
      });
      await this.deps.mail.queue(tx, {
        userId: user.id,
        kind: 'reset_password',
        to: user.email,
        sensitive: true,
        mail: resetPasswordMail(translatorFor(user.locale), {
          username: user.username,
          url: this.deps.mail.link('/reset-password', { token }),
        }),
      });
    });
  }

  /**
   * Sets a new password through a reset link: ends every session of the account, confirms the address
   * the link went to, and tells the owner.
   */
  private resetSteps: PasswordResetStep[] = [];

  /** What another module does inside every reset's transaction (AuthService.usePasswordResetStep). */
  useResetStep(step: PasswordResetStep): void {
    this.resetSteps.push(step);
  }

  async resetPassword(
    token: string,
    password: string,
    info: RequestInfo,
    choice: { removePasskeys: boolean } = { removePasskeys: true },
  ): Promise<void> {
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.resetPerIp, info.ip);
    if (isCommonPassword(password)) {
      throw badRequest('This password is too common. Choose one that is harder to guess.', {
        fields: { password: 'This password is too common. Choose one that is harder to guess.' },
      });
    }
    const hash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      // Refused unless the account is enabled, still uses the address the link went to, and has not
      // changed since it was sent (decision 0200); so the mailbox it reached is the account's own.
      const spent = await consumeAccountToken(tx, 'reset_password', token);
      const user = await findUserById(tx, spent.userId);
      if (!user) throw tokenError('invalid');
      noteUserChanging(user.id);
      await tx
        .update(users)
        .set({
          passwordHash: hash,
          passwordChangedAt: sql`now()`,
          updatedAt: sql`now()`,
          emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
          ...voidAccountLinks(),
        })
        .where(eq(users.id, user.id));
      await this.deps.sessions.revokeAllForUser(tx, user.id);
      for (const step of this.resetSteps) await step(tx, user.id, choice);
      await this.queuePasswordChanged(tx, user, info);
    });
  }

  private async queuePasswordChanged(db: DbOrTx, user: UserRow, info: { ip: string }): Promise<void> {
    await this.deps.mail.queue(db, {
      userId: user.id,
      kind: 'password_changed',
      to: user.email,
      mail: passwordChangedMail(translatorFor(user.locale), {
        username: user.username,
        when: whenFor(translatorFor(user.locale)),
        ip: info.ip,
        forgotUrl: this.deps.mail.link('/forgot-password'),
      }),
    });
    // In the caller's transaction when given one (a savepoint), else in one of its own.
    await db.transaction((tx) =>
      this.deps.events.emit(tx, { type: 'security.changed', userId: user.id, change: 'password_changed', ip: info.ip }),
    );
  }

  /** After a password change in settings (auth.service.ts). Never fails the change. */
  async afterPasswordChange(userId: string, info: { ip: string } | undefined): Promise<void> {
    const user = await findUserById(this.db, userId);
    if (!user) return;
    try {
      await this.queuePasswordChanged(this.db, user, info ?? { ip: 'unknown' });
    } catch (err) {
      this.deps.log.error({ err: safeError(err), userId }, 'password-changed mail could not be queued');
    }
  }

  // ---- new device ---------------------------------------------------------------------------------

  /** Records the device; answers true when the account had signed in before, but never from it. */
  private async rememberDevice(db: DbOrTx, userId: string, userAgent: string | undefined): Promise<boolean> {
    const deviceKey = createHash('sha256')
      .update(userAgent ?? '')
      .digest('hex');
    const result = await db.execute<{ inserted: boolean; others: number }>(sql`
      WITH upsert AS (
        INSERT INTO known_devices (user_id, device_key) VALUES (${userId}, ${deviceKey})
        ON CONFLICT (user_id, device_key) DO UPDATE SET last_seen_at = now()
        RETURNING (xmax = 0) AS inserted
      )
      SELECT (SELECT inserted FROM upsert) AS inserted,
             (SELECT count(*)::int FROM ${knownDevices} WHERE user_id = ${userId} AND device_key <> ${deviceKey}) AS others`);
    const row = result.rows[0];
    return Boolean(row?.inserted) && Number(row?.others ?? 0) > 0;
  }

  /** After a successful sign-in (auth.service.ts): a notice when the device is new to the account. Never fails the sign-in. */
  async afterSignIn(user: UserRow, info: RequestInfo): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        if (!(await this.rememberDevice(tx, user.id, info.userAgent))) return;
        await this.deps.mail.queue(tx, {
          userId: user.id,
          kind: 'new_device',
          to: user.email,
          mail: newDeviceMail(translatorFor(user.locale), {
            username: user.username,
            browser: describeBrowser(info.userAgent),
            ip: info.ip,
            when: whenFor(translatorFor(user.locale)),
            sessionsUrl: this.deps.mail.link(settingsPath('security')),
            forgotUrl: this.deps.mail.link('/forgot-password'),
          }),
        });
        await this.deps.events.emit(tx, {
          type: 'security.changed',
          userId: user.id,
          change: 'sign_in',
          browser: describeBrowser(info.userAgent),
          ip: info.ip,
        });
      });
    } catch (err) {
      this.deps.log.error({ err: safeError(err), userId: user.id }, 'new-device notice could not be queued');
    }
  }

  // ---- change of address --------------------------------------------------------------------------

  /** Sends a confirmation link to the new address and a notice to the old one; nothing changes yet. */
  async requestEmailChange(userId: string, email: string, currentPassword: string): Promise<string> {
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.changeEmailPerAccount, userId);
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError('WRONG_PASSWORD', 'Current password is incorrect', {
        details: { fields: { currentPassword: 'Current password is incorrect' } },
      });
    }
    const newEmail = email.trim();
    if (newEmail.toLowerCase() === user.email.toLowerCase()) {
      throw badRequest('This is already your email address', { fields: { email: 'This is already your email address' } });
    }
    await this.assertAddressFree(this.db, newEmail, user.id);
    await this.db.transaction(async (tx) => {
      const token = await issueAccountToken(tx, {
        userId: user.id,
        purpose: 'change_email',
        email: newEmail,
        supersede: true,
        securityStamp: user.securityStamp,
      });
      await this.deps.mail.queue(tx, {
        userId: user.id,
        kind: 'email_change_confirm',
        to: newEmail,
        sensitive: true,
        mail: confirmEmailChangeMail(translatorFor(user.locale), {
          username: user.username,
          newEmail,
          url: this.deps.mail.link('/confirm-email', { token }),
        }),
      });
      await this.deps.mail.queue(tx, {
        userId: user.id,
        kind: 'email_change_requested',
        to: user.email,
        mail: emailChangeRequestedMail(translatorFor(user.locale), {
          username: user.username,
          newEmail,
          forgotUrl: this.deps.mail.link('/forgot-password'),
        }),
      });
    });
    return newEmail;
  }

  private async assertAddressFree(db: DbOrTx, email: string, userId: string): Promise<void> {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()} AND ${users.id} <> ${userId}`)
      .limit(1);
    if (taken) {
      throw conflict('An account with that email already exists', { fields: { email: 'An account with that email already exists' } });
    }
  }

  /** Opening the link: the address changes (and counts as confirmed), and the old address is told. */
  async confirmEmailChange(token: string, ip: string): Promise<string> {
    await this.deps.rateLimiter.consume(EMAIL_RATE_LIMITS.verifyPerIp, ip);
    return this.db.transaction(async (tx) => {
      // Refused once the password was reset or changed, or the account disabled, after the request (decision 0200).
      const spent = await consumeAccountToken(tx, 'change_email', token);
      const user = await findUserById(tx, spent.userId);
      if (!user) throw tokenError('invalid');
      await this.assertAddressFree(tx, spent.email, user.id);
      noteUserChanging(user.id);
      try {
        await tx.transaction((savepoint) =>
          savepoint
            .update(users)
            .set({ email: spent.email, emailVerifiedAt: sql`now()`, updatedAt: sql`now()`, ...voidAccountLinks() })
            .where(eq(users.id, user.id)),
        );
      } catch (err) {
        const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (code === '23505')
          throw conflict('An account with that email already exists', { fields: { email: 'An account with that email already exists' } });
        throw err;
      }
      await this.deps.mail.queue(tx, {
        userId: user.id,
        kind: 'email_changed',
        to: user.email,
        mail: emailChangedMail(translatorFor(user.locale), {
          username: user.username,
          newEmail: spent.email,
          when: whenFor(translatorFor(user.locale)),
        }),
      });
      await this.deps.events.emit(tx, { type: 'security.changed', userId: user.id, change: 'email_changed', email: spent.email });
      return spent.email;
    });
  }
}
