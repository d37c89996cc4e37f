import { eq, sql } from 'drizzle-orm';
import { notFound } from '#server/errors.js';
import { postLedgerEntry, reverseWithDebt } from '#server/modules/credits/ledger.service.js';
import { afterPaymentCredited, settleLatePaymentByProvider, type LatePaymentOutcome } from './late-payments.js';
import type { KeyedLock } from './keyed-lock.js';
import { creditDue, decimalString, nextStatus, REVERSAL_STATUSES } from './payment-rules.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import type { PaymentReads } from './payment-reads.js';
import type { PaymentsServiceDeps, UpdateSource } from './payments-deps.js';
import { payments, type PaymentRow } from './payments.tables.js';
import { paymentEvents } from './payment-events.tables.js';
import { providerDown } from './provider-down.js';
import { ledgerText } from '#shared/ledger-texts.js';

/** What the provider says about one payment, applied: the check, the refresh and the one update path. */
export class ProviderUpdates {
  constructor(
    private readonly deps: PaymentsServiceDeps,
    /** The service's lock, shared with the IPN path (PaymentsService.paymentLock). */
    private readonly paymentLock: KeyedLock,
    private readonly reads: PaymentReads,
  ) {}

  /** Records the user's transaction hash and asks the provider now. */
  async check(userId: string, paymentId: string, txHash: string): Promise<PaymentRow> {
    const own = await this.reads.getOwn(userId, paymentId);
    await this.deps.db
      .update(payments)
      .set({ txHash, updatedAt: sql`now()` })
      .where(eq(payments.id, own.id));
    return (await this.refreshFromProvider(own.id, 'check')) ?? (await this.reads.getOwn(userId, paymentId));
  }

  /** Asks the provider about one payment and applies the answer. */
  async refreshFromProvider(paymentId: string, source: UpdateSource): Promise<PaymentRow | null> {
    const [row] = await this.deps.db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
    if (!row?.providerPaymentId) return row ?? null;
    let remote: NowPaymentsPayment;
    try {
      remote = await this.deps.client.getPayment(row.providerPaymentId);
    } catch (err) {
      if (source === 'check') throw providerDown(this.deps.log, err);
      this.deps.log.warn({ err, paymentId }, 'reconciliation could not reach the provider');
      return row;
    }
    return this.applyProviderUpdate(row.id, remote, source);
  }

  /**
   * The one place a provider's word changes a payment - IPN, reconciliation and check all come here.
   * One transaction on one connection: lock the payment row, move its status, and credit the ledger
   * for what is due minus what was already credited. The row lock serialises racing callers on every
   * instance; the ledger's unique reference is the last line against a double credit.
   */
  async applyProviderUpdate(paymentId: string, remote: NowPaymentsPayment, source: UpdateSource): Promise<PaymentRow> {
    return this.paymentLock.run(paymentId, () => this.applyLocked(paymentId, remote, source));
  }

  private async applyLocked(paymentId: string, remote: NowPaymentsPayment, source: UpdateSource): Promise<PaymentRow> {
    const result = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      if (!row) throw notFound('Payment not found');
      const incoming = String(remote.payment_status ?? '');
      let status = nextStatus(row.status, incoming);
      const actuallyPaid = decimalString(remote.actually_paid) ?? row.actuallyPaid;

      const due = creditDue(row, status, actuallyPaid);
      const target = due.target;

      let credited = row.creditedCents;
      let late: LatePaymentOutcome = 'open';
      if (due.cents > 0) {
        const posted = await postLedgerEntry(
          tx,
          {
            userId: row.userId,
            amountCents: due.cents,
            kind: 'payment',
            reference: due.reference,
            description: due.description,
            metadata: { paymentId: row.id, providerPaymentId: row.providerPaymentId, source },
          },
          this.deps.events,
        );
        credited = target;
        // A closing or erased account (decision 0305): the closure waits, or the credits are written off
        // and the payment queued for a refund to its sender. Under the user's lock the entry just took.
        if (posted.created) {
          late = await afterPaymentCredited(
            tx,
            { mail: this.deps.mail, events: this.deps.events, log: this.deps.log },
            row,
            due.cents - posted.settledCents,
            target,
          );
        }
      }
      if (status === 'finished' && credited === row.creditsCents) status = 'completed';
      const reversal = REVERSAL_STATUSES[status];
      // A late payment of an erased account (decision 0305) was written off when it was credited: the
      // provider sending the money back is its refund, and there is nothing left to take back.
      if (reversal && credited > 0 && (await settleLatePaymentByProvider(tx, row.id, status))) {
        this.deps.log.info({ paymentId: row.id, status }, 'late payment of an erased account refunded by the provider');
      } else if (reversal && credited > 0) {
        // The money went back to the sender: so do the credits it bought. What the balance holds is
        // taken back by one `refund` entry; what was already spent becomes an outstanding amount that
        // later credits settle first (docs/decisions/0120). Repeats find the same reference.
        const coin = row.payCurrency.toUpperCase();
        const way = status === 'refunded' ? 'refunded' : 'charged_back';
        const result = await reverseWithDebt(
          tx,
          {
            userId: row.userId,
            cents: credited,
            reference: `payment:${row.id}:${status}:${credited}`,
            reason: reversal,
            paymentId: row.id,
            description: ledgerText('paymentReversed', { way, coin }),
            debtDescription: ledgerText('paymentReversedDebt', { way, priceCents: row.priceAmountCents, coin, creditedCents: credited }),
            metadata: { paymentId: row.id, providerPaymentId: row.providerPaymentId, source },
          },
          this.deps.events,
        );
        credited = 0;
        if (result.owedCents > 0) {
          this.deps.log.warn(
            { paymentId: row.id, userId: row.userId, takenBackCents: result.takenCents, owedCents: result.owedCents },
            'reversed payment: credits already spent, the account now owes them',
          );
        }
      }

      // Nothing paid reported as "0" where we had no figure is no change: a reconciliation pass that only
      // learns that writes no event (it raced refused requests in the authorization tests).
      const paidChanged = Number(actuallyPaid ?? 0) !== Number(row.actuallyPaid ?? 0);
      const changed = status !== row.status || credited !== row.creditedCents || paidChanged;
      this.reads.forgetStatus(row.id);
      const [updated] = await tx
        .update(payments)
        .set({
          status,
          creditedCents: credited,
          actuallyPaid,
          parentPaymentId: remote.parent_payment_id != null ? String(remote.parent_payment_id) : row.parentPaymentId,
          providerData: changed ? remote : row.providerData,
          lastCheckedAt: sql`now()`,
          completedAt: status === 'completed' && !row.completedAt ? sql`now()` : row.completedAt,
          ...(changed ? { updatedAt: sql`now()` } : {}),
        })
        .where(eq(payments.id, row.id))
        .returning();
      if (source !== 'reconcile' || changed) {
        await tx.insert(paymentEvents).values({
          paymentId: row.id,
          source,
          providerStatus: incoming,
          statusBefore: row.status,
          statusAfter: status,
          creditedCents: credited - row.creditedCents,
          body: remote as Record<string, unknown>,
        });
      }
      if (status !== row.status) {
        await this.deps.events.emit(tx, {
          type: 'payment.changed',
          userId: row.userId,
          payment: { id: row.id, priceAmountCents: row.priceAmountCents, feeCents: row.feeCents, payCurrency: row.payCurrency },
          from: row.status,
          to: status,
          creditedCents: credited,
          // An erased account has nobody to tell (its address is `.invalid`); staff see the refund queue.
          refundQueued: late === 'refund-queued',
        });
      }
      return { before: row, after: updated! };
    });
    if (result.before.status !== result.after.status) {
      this.deps.log.info(
        { paymentId, from: result.before.status, to: result.after.status, creditedCents: result.after.creditedCents, source },
        'payment status changed',
      );
    }
    return result.after;
  }
}
