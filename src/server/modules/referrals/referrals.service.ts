import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PaymentStatus } from '#shared/schemas/payments.js';
import { ledgerText } from '#shared/ledger-texts.js';
import { type AdminReferral, type ReferralSettings, type ReferralSettingsChange } from '#shared/schemas/referrals.js';
import type { Db, Tx } from '#server/db/client.js';
import { conflict, notFound } from '#server/errors.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { translatorFor } from '#server/i18n/translator.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { lockUserForMoney, postLedgerEntry, reverseWithDebt } from '#server/modules/credits/ledger.service.js';
import { referralJoinedNotice, referralRewardNotice } from '#server/modules/notifications/notices.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { REVERSAL_STATUSES } from '#server/modules/payments/payment-rules.js';
import { payments, type PaymentRow } from '#server/modules/payments/payments.tables.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import { users } from '#server/modules/users/users.tables.js';
import {
  capped,
  maskName,
  refusalReasonOf,
  releaseTime,
  rewardsUntil,
  shareOf,
  sharePercent,
  signalsBetween,
  utcDay,
} from './referral-rules.js';
import { adminOne, currentSettings, settingsWithHistory } from './referral-reads.js';
import { referralRewards, referrals, referralSettings, type ReferralRewardRow, type ReferralRow } from './referrals.tables.js';

/** The job that applies a top-up's final or reversed state to its referral (queued by the payment's change). */
export const REFERRAL_PAYMENT_JOB = 'referrals.payment';
/** The every-minute job that releases held rewards whose time has come. */
export const REFERRAL_RELEASE_JOB = 'referrals.release';

export interface ReferralsDeps {
  db: Db;
  events: DomainEvents;
  jobs: JobQueue;
  notifications: NotificationsService;
}

/** A payment whose credits are final: finished (or completed) and credited in full. */
export function isFinalTopUp(p: Pick<PaymentRow, 'status' | 'creditedCents' | 'creditsCents'>): boolean {
  return (p.status === 'finished' || p.status === 'completed') && p.creditedCents > 0 && p.creditedCents === p.creditsCents;
}

export const isReversed = (status: PaymentStatus): boolean => Boolean(REVERSAL_STATUSES[status]);

/**
 * The referral programme (docs/product.md#referrals, docs/decisions/0332): a referral row at
 * registration, the referrer's share and the welcome bonus when a top-up is final, held shares released
 * to the ledger by a job, clawbacks when a top-up is reversed, and the staff's decisions and report.
 * Every payout is exactly-once by a unique row (`referral_rewards`: one per payment and kind, one welcome
 * bonus per referral) and a unique ledger reference, never by a read before a write.
 */
export class ReferralsService {
  /** The clock: tests move it instead of sleeping. */
  now: () => Date = () => new Date();

  constructor(private readonly deps: ReferralsDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  // ---- registration --------------------------------------------------------------------------------

  /** In the registration's transaction: the referral row, and the referrer's "someone joined" notice. */
  async recordJoin(tx: Tx, user: { id: string; username: string; referredBy: string | null }): Promise<void> {
    if (!user.referredBy || user.referredBy === user.id) return;
    const [row] = await tx
      .insert(referrals)
      .values({ referrerId: user.referredBy, referredId: user.id, joinedAt: this.now() })
      .onConflictDoNothing()
      .returning();
    if (!row) return;
    const tr = translatorFor(await findUserLocale(tx, user.referredBy));
    await this.deps.notifications.emit(
      tx,
      referralJoinedNotice({ referralId: row.id, referrerId: user.referredBy, maskedName: maskName(user.username) }, tr),
    );
  }

  // ---- a payment's change ----------------------------------------------------------------------------

  /** Queues the referral work of payments that became final or were reversed, in the change's transaction. */
  async queuePayments(tx: Tx, changes: { userId: string; paymentId: string; to: string }[]): Promise<void> {
    const relevant = changes.filter((c) => c.to === 'finished' || c.to === 'completed' || isReversed(c.to as PaymentStatus));
    if (relevant.length === 0) return;
    const referred = await tx
      .select({ id: referrals.referredId })
      .from(referrals)
      .where(inArray(referrals.referredId, [...new Set(relevant.map((c) => c.userId))]));
    const ids = new Set(referred.map((r) => r.id));
    const jobs = relevant.filter((c) => ids.has(c.userId)).map((c) => ({ paymentId: c.paymentId }));
    if (jobs.length === 1) await this.deps.jobs.send(REFERRAL_PAYMENT_JOB, jobs[0]!, { tx });
    else if (jobs.length > 1) await this.deps.jobs.sendMany(REFERRAL_PAYMENT_JOB, jobs, { tx });
  }

  /**
   * Applies what a payment is now to its referral: a final top-up earns (once), a reversed one takes back.
   * Locks the referral row first, so every change of one referral is serialised; reads the payment after.
   */
  async processPayment(paymentId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [owner] = await tx.select({ userId: payments.userId }).from(payments).where(eq(payments.id, paymentId));
      if (!owner) return;
      const [referral] = await tx.select().from(referrals).where(eq(referrals.referredId, owner.userId)).for('update');
      if (!referral) return;
      const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId));
      if (!payment) return;
      if (isReversed(payment.status)) {
        await this.clawBack(tx, referral, eq(referralRewards.paymentId, payment.id));
        return;
      }
      if (isFinalTopUp(payment)) await this.reward(tx, referral, payment);
    });
  }

  private async reward(tx: Tx, referral: ReferralRow, payment: PaymentRow): Promise<void> {
    if (referral.status === 'refused') return;
    const now = this.now();
    const settings = await currentSettings(tx);
    // The referrer's row: the lock that serialises their caps (daily, lifetime) across referrals.
    await lockUserForMoney(tx, referral.referrerId);

    if (referral.status === 'joined') {
      const signals = await signalsBetween(tx, referral.referrerId, referral.referredId);
      const reason = refusalReasonOf(referral.referrerId, referral.referredId, signals);
      await tx
        .update(referrals)
        .set(
          reason
            ? { status: 'refused', refusalReason: reason, signals, refusedAt: now }
            : { status: 'qualified', signals, qualifiedAt: now },
        )
        .where(eq(referrals.id, referral.id));
      if (reason) return;
      referral = { ...referral, status: 'qualified' };
    }

    const [referred] = await tx.select({ username: users.username }).from(users).where(eq(users.id, referral.referredId));
    const masked = maskName(referred?.username ?? '');
    const day = utcDay(now);

    // The referrer's share, if the top-up was made within the window and the caps leave room.
    const until = rewardsUntil(referral.joinedAt, settings.rewardDays);
    if (payment.createdAt.getTime() <= until.getTime()) {
      const used = await tx.execute<{ per: string; today: string; life: string }>(sql`
        SELECT
          coalesce(sum(amount_cents) FILTER (WHERE referral_id = ${referral.id}), 0) AS per,
          coalesce(sum(amount_cents) FILTER (WHERE earned_day = ${day}::date), 0) AS today,
          coalesce(sum(amount_cents), 0) AS life
        FROM referral_rewards
        WHERE beneficiary_id = ${referral.referrerId} AND kind = 'referrer_share' AND state IN ('held', 'paid')`);
      const u = used.rows[0]!;
      const cents = capped(shareOf(payment.creditedCents, settings.shareBasisPoints), settings, {
        perReferred: Number(u.per),
        today: Number(u.today),
        lifetime: Number(u.life),
      });
      if (cents > 0) {
        const releaseAt = releaseTime(now, settings.holdDays);
        const [row] = await tx
          .insert(referralRewards)
          .values({
            referralId: referral.id,
            kind: 'referrer_share',
            beneficiaryId: referral.referrerId,
            paymentId: payment.id,
            baseCents: payment.creditedCents,
            shareBasisPoints: settings.shareBasisPoints,
            amountCents: cents,
            state: 'held',
            earnedDay: day,
            releaseAt,
            createdAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (row) {
          const paidNow = settings.holdDays === 0;
          if (paidNow) await this.pay(tx, row, masked, now);
          const tr = translatorFor(await findUserLocale(tx, referral.referrerId));
          await this.deps.notifications.emit(
            tx,
            referralRewardNotice(
              { rewardId: row.id, referrerId: referral.referrerId, maskedName: masked, amountCents: cents, releaseAt, held: !paidNow },
              tr,
            ),
          );
        }
      }
    }

    // The referred person's welcome bonus: once per referral (a unique index), on the first final top-up.
    if (settings.welcomeBonusCents > 0) {
      const [bonus] = await tx
        .insert(referralRewards)
        .values({
          referralId: referral.id,
          kind: 'welcome_bonus',
          beneficiaryId: referral.referredId,
          paymentId: payment.id,
          baseCents: payment.creditedCents,
          amountCents: settings.welcomeBonusCents,
          state: 'held',
          earnedDay: day,
          releaseAt: now,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (bonus) await this.pay(tx, bonus, masked, now);
    }
  }

  /** Posts a reward to the ledger (idempotent by its reference) and marks it paid. The referral row is locked. */
  private async pay(tx: Tx, row: ReferralRewardRow, maskedReferred: string, now: Date): Promise<void> {
    const share = row.kind === 'referrer_share';
    const posted = await postLedgerEntry(
      tx,
      {
        userId: row.beneficiaryId,
        amountCents: row.amountCents,
        kind: share ? 'referral_reward' : 'welcome_bonus',
        reference: share ? `referral:reward:${row.id}` : `referral:welcome:${row.referralId}`,
        description: share
          ? ledgerText('referralReward', { share: sharePercent(row.shareBasisPoints ?? 0), maskedName: maskedReferred })
          : ledgerText('welcomeBonus', {}),
        metadata: { referralId: row.referralId, rewardId: row.id, paymentId: row.paymentId },
      },
      this.deps.events,
    );
    await tx
      .update(referralRewards)
      .set({ state: 'paid', paidEntryId: posted.entry.id, paidAt: now })
      .where(eq(referralRewards.id, row.id));
    if (share) {
      await tx
        .update(referrals)
        .set({ status: 'rewarded' })
        .where(and(eq(referrals.id, row.referralId), eq(referrals.status, 'qualified')));
    }
  }

  // ---- release ------------------------------------------------------------------------------------------

  /**
   * Releases the held rewards whose time has come (every held one with `all`, the sandbox control): each
   * in its own transaction, the referral row locked first, then the reward row, its state read again under
   * the lock. Run twice, or on two instances at once, it pays each reward once. Answers how many it paid.
   */
  async releaseDue(options: { all?: boolean } = {}): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ id: referralRewards.id, referralId: referralRewards.referralId })
      .from(referralRewards)
      .where(and(eq(referralRewards.state, 'held'), options.all ? undefined : lte(referralRewards.releaseAt, now)))
      .orderBy(asc(referralRewards.releaseAt))
      .limit(1000);
    let paid = 0;
    for (const d of due) {
      const done = await this.db.transaction(async (tx) => {
        const [referral] = await tx.select().from(referrals).where(eq(referrals.id, d.referralId)).for('update');
        const [row] = await tx.select().from(referralRewards).where(eq(referralRewards.id, d.id)).for('update');
        if (!referral || !row || row.state !== 'held') return false;
        if (!options.all && row.releaseAt.getTime() > now.getTime()) return false;
        if (referral.status === 'refused') return false;
        const [referred] = await tx.select({ username: users.username }).from(users).where(eq(users.id, referral.referredId));
        await this.pay(tx, row, maskName(referred?.username ?? ''), now);
        return true;
      });
      if (done) paid++;
    }
    return paid;
  }

  // ---- clawback -------------------------------------------------------------------------------------------

  /**
   * Takes back the rewards `which` selects of a locked referral: a held one becomes `clawed_back` with
   * nothing on the ledger; a paid one is taken back by a `referral_clawback` entry, what the balance
   * cannot cover becoming an outstanding amount (docs/decisions/0120), never a negative balance.
   * Idempotent: a row already ended is left, and the reversal's reference is unique.
   */
  private async clawBack(tx: Tx, referral: ReferralRow, which: SQL): Promise<number> {
    const now = this.now();
    const rows = await tx
      .select()
      .from(referralRewards)
      .where(and(eq(referralRewards.referralId, referral.id), which))
      .orderBy(asc(referralRewards.kind), asc(referralRewards.createdAt))
      .for('update');
    const [referred] = await tx.select({ username: users.username }).from(users).where(eq(users.id, referral.referredId));
    const masked = maskName(referred?.username ?? '');
    let ended = 0;
    for (const row of rows) {
      if (row.state === 'held') {
        await tx.update(referralRewards).set({ state: 'clawed_back', endedAt: now }).where(eq(referralRewards.id, row.id));
        ended++;
      } else if (row.state === 'paid') {
        const share = row.kind === 'referrer_share';
        const result = await reverseWithDebt(
          tx,
          {
            userId: row.beneficiaryId,
            cents: row.amountCents,
            kind: 'referral_clawback',
            reference: `referral:clawback:${row.id}`,
            reason: 'refunded',
            paymentId: null,
            description: share ? ledgerText('referralRewardTakenBack', { maskedName: masked }) : ledgerText('welcomeBonusTakenBack', {}),
            debtDescription: share
              ? ledgerText('referralRewardDebt', { amountCents: row.amountCents, maskedName: masked })
              : ledgerText('welcomeBonusDebt', { amountCents: row.amountCents }),
            metadata: { referralId: referral.id, rewardId: row.id, paymentId: row.paymentId },
          },
          this.deps.events,
        );
        await tx
          .update(referralRewards)
          .set({ state: 'clawed_back', endedAt: now, takenBackCents: result.takenCents, owedCents: result.owedCents })
          .where(eq(referralRewards.id, row.id));
        ended++;
      }
    }
    return ended;
  }

  // ---- staff -------------------------------------------------------------------------------------------

  /** Refuses a referral before it paid the referrer: held shares are cancelled. Audited. */
  async refuse(id: string, actor: { id: string; username: string }, note: string): Promise<AdminReferral> {
    await this.db.transaction(async (tx) => {
      const [referral] = await tx.select().from(referrals).where(eq(referrals.id, id)).for('update');
      if (!referral) throw notFound('Referral not found');
      if (referral.status === 'refused') throw conflict('This referral is already refused');
      const [paid] = await tx
        .select({ id: referralRewards.id })
        .from(referralRewards)
        .where(and(eq(referralRewards.referralId, id), eq(referralRewards.kind, 'referrer_share'), eq(referralRewards.state, 'paid')))
        .limit(1);
      if (paid) throw conflict('This referral already paid its referrer: reverse it instead');
      const now = this.now();
      await tx
        .update(referralRewards)
        .set({ state: 'cancelled', endedAt: now })
        .where(and(eq(referralRewards.referralId, id), eq(referralRewards.kind, 'referrer_share'), eq(referralRewards.state, 'held')));
      await tx
        .update(referrals)
        .set({ status: 'refused', refusalReason: 'refused_by_staff', refusalNote: note, refusedAt: now, decidedBy: actor.id })
        .where(eq(referrals.id, id));
      await recordAudit(tx, {
        actor,
        action: 'referral.refuse',
        targetType: 'referral',
        targetId: id,
        before: { status: referral.status },
        after: { status: 'refused', refusalReason: 'refused_by_staff' },
        reason: note,
      });
    });
    return adminOne(this.db, id);
  }

  /** Reverses a referral: every held reward is clawed back, every paid one taken back on the ledger. Audited. */
  async reverse(id: string, actor: { id: string; username: string }, note: string): Promise<AdminReferral> {
    await this.db.transaction(async (tx) => {
      const [referral] = await tx.select().from(referrals).where(eq(referrals.id, id)).for('update');
      if (!referral) throw notFound('Referral not found');
      if (referral.refusalReason === 'reversed_by_staff') throw conflict('This referral is already reversed');
      const ended = await this.clawBack(tx, referral, sql`true`);
      await tx
        .update(referrals)
        .set({
          status: 'refused',
          refusalReason: 'reversed_by_staff',
          refusalNote: note,
          refusedAt: this.now(),
          decidedBy: actor.id,
        })
        .where(eq(referrals.id, id));
      await recordAudit(tx, {
        actor,
        action: 'referral.reverse',
        targetType: 'referral',
        targetId: id,
        before: { status: referral.status, refusalReason: referral.refusalReason },
        after: { status: 'refused', refusalReason: 'reversed_by_staff', rewardsTakenBack: ended },
        reason: note,
      });
    });
    return adminOne(this.db, id);
  }

  // ---- settings -----------------------------------------------------------------------------------------

  /** A new row of settings (the history keeps every one), audited with the values before and after. */
  async changeSettings(
    next: ReferralSettings,
    actor: { id: string; username: string },
  ): Promise<{ settings: ReferralSettings; history: ReferralSettingsChange[] }> {
    await this.db.transaction(async (tx) => {
      // One change at a time: the audit's "before" is the row this change follows.
      await tx.execute(sql`LOCK TABLE referral_settings IN SHARE ROW EXCLUSIVE MODE`);
      const before = await currentSettings(tx);
      await tx.insert(referralSettings).values({ ...next, changedBy: actor.id });
      await recordAudit(tx, {
        actor,
        action: 'referral.settings',
        targetType: 'referral_settings',
        targetId: null,
        before,
        after: next,
      });
    });
    return settingsWithHistory(this.db);
  }
}
