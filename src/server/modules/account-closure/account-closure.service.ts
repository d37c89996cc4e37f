import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { ACCOUNT_ERASURE_DELAY_DAYS } from '#shared/constants.js';
import { formatCredits } from '#shared/fees.js';
import type {
  CloseAccountBody,
  ClosureSummary,
  LatePaymentRefund,
  PendingClosure,
  RestoreAccountBody,
  RestoredAccount,
} from '#shared/schemas/account-closure.js';
import type { Database, DbOrTx } from '#server/db/client.js';
import { translatorFor } from '#server/i18n/translator.js';
import { AppError, notFound, unauthorized } from '#server/errors.js';
import type { AuthService, RequestMeta } from '#server/modules/auth/auth.service.js';
import { verifyAgainstDummy, verifyPassword } from '#server/modules/auth/passwords.js';
import type { SessionStore } from '#server/modules/auth/sessions.service.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { adCampaigns } from '#server/modules/ads/ads.tables.js';
import { orders } from '#server/modules/catalogue/catalogue.tables.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { accountClosingMail } from '#server/modules/mail/templates/account-closing.js';
import { accountRestoredMail } from '#server/modules/mail/templates/account-restored.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { RATE_LIMITS, type RateLimiter, type RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { findUserById, findUserByLogin, voidAccountLinks } from '#server/modules/users/users.service.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { webhooks } from '#server/modules/webhooks/webhooks.tables.js';
import { eraseAccount, type ErasureDeps } from './erasure.js';
import { listLatePayments, markLatePaymentRefunded } from '#server/modules/payments/late-payments.js';

export const CLOSURE_RATE_LIMITS = {
  /** Password checks of the closing dialog, per account (like a password change). */
  closePerAccount: { name: 'account-close:account', limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

const INVALID_CREDENTIALS = 'Invalid username or password';

export interface AccountClosureDeps {
  database: Database;
  rateLimiter: RateLimiter;
  sessions: SessionStore;
  mail: MailService;
  /** Where the "account restored" security change is reported (its notice subscribes there). */
  events: DomainEvents;
  auth: AuthService;
  erasure: Omit<ErasureDeps, 'database'>;
}

const when = (date = new Date()) => `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** What a campaign's budget still holds, in whole cents, rounded up as its refund would be (decision 0280). */
const reserveOf = (remainingMillicents: number | null) => (remainingMillicents === null ? 0 : Math.ceil(remainingMillicents / 1000));

/**
 * The owner's campaigns that have not ended, oldest first, with what each still holds. `lock`: under
 * row locks, in id order after the user's row (decision 0301: user, then campaign).
 */
async function openCampaigns(db: DbOrTx, userId: string, lock = false) {
  const query = db
    .select({
      id: adCampaigns.id,
      name: adCampaigns.name,
      status: adCampaigns.status,
      remainingMillicents: adCampaigns.remainingMillicents,
    })
    .from(adCampaigns)
    .where(and(eq(adCampaigns.ownerId, userId), ne(adCampaigns.status, 'ended')))
    .orderBy(asc(adCampaigns.id));
  const rows = lock ? await query.for('update') : await query;
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    status: r.status as 'active' | 'paused',
    reserveCents: reserveOf(r.remainingMillicents),
  }));
}

export class AccountClosureService {
  constructor(private readonly deps: AccountClosureDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** What the closing dialog shows: the balance and the campaigns' reserve that would be forfeited, and the orders still open. */
  async summary(userId: string): Promise<ClosureSummary> {
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
    const pending = await this.db
      .select({ id: orders.id, itemName: orders.itemName, priceCents: orders.priceCents, createdAt: orders.createdAt })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.status, 'paid')))
      .orderBy(asc(orders.createdAt));
    const methods = this.deps.auth.signInFactor ? await this.deps.auth.signInFactor.methods(userId) : [];
    const campaigns = await openCampaigns(this.db, userId);
    return {
      balanceCents: user.creditsCents,
      pendingOrders: pending.map((o) => ({
        _id: o.id,
        itemName: o.itemName,
        priceCents: o.priceCents,
        createdAt: o.createdAt.toISOString(),
      })),
      campaigns,
      campaignReserveCents: campaigns.reduce((sum, c) => sum + c.reserveCents, 0),
      erasureDelayDays: ACCOUNT_ERASURE_DELAY_DAYS,
      twoFactorRequired: methods.length > 0,
    };
  }

  /**
   * DELETE /api/users/me (the second factor was checked by the route's step-up check). In one
   * transaction, on the locked user row: the balance must be the one the person acknowledged, then the
   * account is marked closing, its running ad campaigns are paused (their reserve acknowledged like the
   * balance, decision 0304), every session ends, the connections go, outstanding mail links are voided
   * and the confirmation mail is queued. Webhooks and charges stop because they ask `closing_at`.
   */
  async close(userId: string, body: CloseAccountBody): Promise<{ erasureAt: string }> {
    await this.deps.rateLimiter.consume(CLOSURE_RATE_LIMITS.closePerAccount, userId);
    const user = await findUserById(this.db, userId);
    if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
    if (!(await verifyPassword(user.passwordHash, body.password))) {
      throw new AppError('WRONG_PASSWORD', 'That password is not right', {
        details: { fields: { password: 'That password is not right' } },
      });
    }
    const erasureAt = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
      if (!locked) throw unauthorized('User not found', 'USER_NOT_FOUND');
      if (locked.closingAt) throw new AppError('ACCOUNT_CLOSING', 'This account is already closing');
      if (locked.creditsCents !== body.acknowledgeForfeitedCents) {
        throw new AppError(
          'BALANCE_CHANGED',
          `Your balance is ${formatCredits(locked.creditsCents)} credits now, not ${formatCredits(body.acknowledgeForfeitedCents)}. Check the new figure and confirm again.`,
          { details: { balanceCents: locked.creditsCents } },
        );
      }
      // The campaigns' reserve is forfeited too (decision 0304): a larger one than the dialog showed is
      // refused like a changed balance. Delivery may have drawn from it meanwhile; less is fine.
      const campaigns = await openCampaigns(tx, userId, true);
      const reserveCents = campaigns.reduce((sum, c) => sum + c.reserveCents, 0);
      if (reserveCents > body.acknowledgeCampaignReserveCents) {
        throw new AppError(
          'BALANCE_CHANGED',
          `Your ad campaigns still hold ${formatCredits(reserveCents)} credits, which closing forfeits with your balance. Check the figures and confirm again.`,
          { details: { balanceCents: locked.creditsCents, campaignReserveCents: reserveCents } },
        );
      }
      // Closing pauses them: nothing is served or charged for a closing account. Restoring leaves them paused.
      const running = campaigns.filter((c) => c.status === 'active').map((c) => c._id);
      if (running.length > 0) {
        await tx
          .update(adCampaigns)
          .set({ status: 'paused', updatedAt: new Date() })
          .where(and(inArray(adCampaigns.id, running), eq(adCampaigns.status, 'active')));
      }
      noteUserChanging(userId);
      const removed = (['discord', 'telegram'] as const).filter((name) => locked[name] !== null);
      const [row] = await tx
        .update(users)
        .set({
          closingAt: sql`now()`,
          erasureAt: sql`now() + make_interval(days => ${ACCOUNT_ERASURE_DELAY_DAYS})`,
          closureHeldAt: null,
          closureRemovedConnections: removed,
          discord: null,
          telegram: null,
          ...voidAccountLinks(),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, userId))
        .returning({ erasureAt: users.erasureAt });
      await this.deps.sessions.revokeAllForUser(tx, userId);
      const at = row!.erasureAt!;
      await this.deps.mail.queue(tx, {
        userId,
        kind: 'account_closing',
        to: locked.email,
        mail: accountClosingMail(translatorFor(locked.locale), {
          username: locked.username,
          erasureAt: at,
          days: ACCOUNT_ERASURE_DELAY_DAYS,
          balanceCents: locked.creditsCents,
          reserveCents,
          signInUrl: this.deps.mail.link('/login'),
        }),
      });
      return at;
    });
    return { erasureAt: erasureAt.toISOString() };
  }

  /**
   * POST /api/auth/restore-account: the same checks as a sign-in (throttles, one answer for an unknown
   * name and a wrong password, the second step when the authenticator app is on), then the closure is
   * undone and the person is signed in. Refused once the erasure time has come.
   */
  async restore(body: RestoreAccountBody, meta: RequestMeta): Promise<{ user: UserRow; token: string; restored: RestoredAccount }> {
    const { rateLimiter } = this.deps;
    await rateLimiter.consume(RATE_LIMITS.loginPerIp, meta.ip);
    const found = await findUserByLogin(this.db, body.username);
    const accountKey = found ? found.id : `name:${body.username.trim().toLowerCase()}`;
    await rateLimiter.consume(RATE_LIMITS.loginFailuresPerAccount, accountKey);
    const valid = found ? await verifyPassword(found.passwordHash, body.password) : await verifyAgainstDummy(body.password);
    if (!found || !valid) throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    await rateLimiter.reset(RATE_LIMITS.loginFailuresPerAccount, accountKey);
    if (!found.closingAt || found.erasedAt) throw new AppError('ACCOUNT_NOT_CLOSING', 'This account is not closing: sign in as usual.');
    await this.deps.auth.signInFactor?.verify(found.id, body.twoFactorCode);

    const signedIn = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(users).where(eq(users.id, found.id)).for('update');
      if (!locked?.closingAt || locked.erasedAt)
        throw new AppError('ACCOUNT_NOT_CLOSING', 'This account is not closing: sign in as usual.');
      // By the database's clock, as the erasure job decides it.
      const [timing] = await tx
        .select({ over: sql<boolean>`${users.erasureAt} <= now()` })
        .from(users)
        .where(eq(users.id, found.id));
      // A held closure (decision 0305) never started erasing: it stays restorable past its date.
      if (!locked.erasureAt || (timing?.over && !locked.closureHeldAt)) {
        throw new AppError('ACCOUNT_NOT_CLOSING', 'This account is being erased and can no longer be restored.');
      }
      noteUserChanging(found.id);
      const [restoredRow] = await tx
        .update(users)
        .set({ closingAt: null, erasureAt: null, closureHeldAt: null, closureRemovedConnections: [], updatedAt: sql`now()` })
        .where(eq(users.id, found.id))
        .returning();
      const restored = await this.whatCameBack(tx, restoredRow!, locked.closureRemovedConnections);
      await this.queueRestoredNotice(tx, restoredRow!, restored, meta);
      const session = await this.deps.auth.startUserSession(tx, restoredRow!, { rememberMe: body.rememberMe, guestId: undefined }, meta);
      return { ...session, restored };
    });
    await this.deps.auth.afterSignIn(signedIn.user, meta);
    return signedIn;
  }

  /** What a restore brought back and what is left to redo (decision 0304), as the answer and the notice say it. */
  private async whatCameBack(tx: DbOrTx, user: UserRow, removed: ('discord' | 'telegram')[]): Promise<RestoredAccount> {
    const paused = (await openCampaigns(tx, user.id)).filter((c) => c.status === 'paused');
    const [hook] = await tx.select({ enabled: webhooks.enabled }).from(webhooks).where(eq(webhooks.userId, user.id)).limit(1);
    return {
      balanceCents: user.creditsCents,
      pausedCampaigns: paused.map(({ _id, name, reserveCents }) => ({ _id, name, reserveCents })),
      webhook: hook?.enabled ?? false,
      reconnect: [...removed],
    };
  }

  /** The security notice of a restore: mail and the in-app centre, like a password change's. */
  private async queueRestoredNotice(tx: DbOrTx, user: UserRow, restored: RestoredAccount, meta: RequestMeta): Promise<void> {
    // In the account's language (docs/decisions/0328); English keeps its short UTC form.
    const tr = translatorFor(user.locale);
    await this.deps.mail.queue(tx, {
      userId: user.id,
      kind: 'account_restored',
      to: user.email,
      mail: accountRestoredMail(tr, {
        username: user.username,
        when: tr.locale === 'en' ? when() : tr.dateTime(new Date()),
        ip: meta.ip,
        balanceCents: restored.balanceCents,
        webhook: restored.webhook,
        pausedCampaigns: restored.pausedCampaigns.length,
        reconnect: restored.reconnect,
        forgotUrl: this.deps.mail.link('/forgot-password'),
      }),
    });
    await tx.transaction((savepoint) =>
      this.deps.events.emit(savepoint, { type: 'security.changed', userId: user.id, change: 'account_restored', ip: meta.ip }),
    );
  }

  /** The staff console's list: accounts closing and not yet erased, the soonest erasure first. */
  async pending(): Promise<PendingClosure[]> {
    const rows = await this.db
      .select()
      .from(users)
      .where(and(isNotNull(users.closingAt), isNull(users.erasedAt)))
      .orderBy(asc(users.erasureAt))
      .limit(500);
    return rows.map((r) => ({
      _id: r.id,
      username: r.username,
      email: r.email,
      balanceCents: r.creditsCents,
      closingAt: r.closingAt!.toISOString(),
      erasureAt: (r.erasureAt ?? r.closingAt!).toISOString(),
      heldSince: r.closureHeldAt?.toISOString() ?? null,
    }));
  }

  /** The staff queue of payments that finished after their account's erasure (decision 0305). */
  latePayments(): Promise<LatePaymentRefund[]> {
    return listLatePayments(this.db);
  }

  /** An admin records a late payment's money as sent back to its sender (audit-logged). */
  async markLatePaymentRefunded(actor: { id: string }, id: string, note: string): Promise<LatePaymentRefund> {
    const admin = await findUserById(this.db, actor.id);
    return markLatePaymentRefunded(this.db, { id: actor.id, username: admin?.username ?? 'unknown' }, id, note);
  }

  /**
   * An admin erases a closing account at once, at its owner's request: the username typed again must
   * match. The erasure time is brought to now (audit-logged with the figures), then the erasure runs.
   */
  async eraseNow(
    actor: { id: string },
    userId: string,
    confirmUsername: string,
  ): Promise<{ _id: string; username: string; erasedAt: string }> {
    const admin = await findUserById(this.db, actor.id);
    const target = await findUserById(this.db, userId);
    if (!target || !target.closingAt || target.erasedAt) throw notFound('No closing account with this id');
    if (confirmUsername.trim().toLowerCase() !== target.username.toLowerCase()) {
      throw new AppError('VALIDATION_ERROR', 'The username typed does not match this account', {
        details: { fields: { confirmUsername: 'Type the account’s username exactly' } },
      });
    }
    await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
      if (!locked?.closingAt || locked.erasedAt) throw notFound('No closing account with this id');
      // At the owner's request: that request is the new decision a held closure waits for (decision 0305).
      await tx
        .update(users)
        .set({ erasureAt: sql`least(${users.erasureAt}, now())`, closureHeldAt: null })
        .where(eq(users.id, userId));
      await recordAudit(tx, {
        actor: { id: actor.id, username: admin?.username ?? 'unknown' },
        action: 'user.erased',
        targetType: 'user',
        targetId: userId,
        before: {
          username: locked.username,
          balanceCents: locked.creditsCents,
          erasureAt: locked.erasureAt?.toISOString() ?? null,
          heldSince: locked.closureHeldAt?.toISOString() ?? null,
        },
        after: { erasureAt: 'now', forfeitedCents: locked.creditsCents },
      });
    });
    const outcome = await eraseAccount({ ...this.deps.erasure, database: this.deps.database }, userId);
    const after = await findUserById(this.db, userId);
    if (!after?.erasedAt) throw new AppError('CONFLICT', `The erasure did not finish (${outcome}); it will be retried by the erasure job.`);
    return { _id: userId, username: after.username, erasedAt: after.erasedAt.toISOString() };
  }
}
