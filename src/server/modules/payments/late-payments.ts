import type { FastifyBaseLogger } from 'fastify';
import { asc, desc, eq, isNull, or, gt, sql } from 'drizzle-orm';
import type { LatePaymentRefund } from '#shared/schemas/account-closure.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { translatorFor } from '#server/i18n/translator.js';
import { accountClosureHeldMail } from '#server/modules/mail/templates/account-closure-held.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { users } from '#server/modules/users/users.tables.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { latePaymentRefunds, type LatePaymentRefundRow } from './late-payments.tables.js';
import { ledgerText } from '#shared/ledger-texts.js';

/**
 * Payments that finish for an account that is closing or erased (docs/decisions/0305). The payment is
 * credited as any other (the books say what arrived); then, on the same transaction and under the user's
 * row lock that the credit took:
 * - **closing, still restorable**: the closure is held (`users.closure_held_at`): the person agreed to
 *   forfeit the balance they were shown, not these credits, so the erasure waits for a new decision (a
 *   restore, then closing again with the new figure; or an admin's "erase now" at their request). The
 *   person is told by mail.
 * - **erased, or its erasure under way** (the erasure time has come): nobody can restore the account any
 *   more, so the credits are written off at once by a `forfeit` entry of their own and the payment joins
 *   the staff queue `late_payment_refunds`, for the money to be sent back to its sender.
 */
export interface LatePaymentDeps {
  mail?: MailService;
  events: DomainEvents;
  log: FastifyBaseLogger;
}

export interface CreditedPayment {
  id: string;
  userId: string;
  priceAmountCents: number;
  payCurrency: string;
}

export type LatePaymentOutcome = 'open' | 'held' | 'refund-queued';

/** The ledger reference of a late payment's write-off: one per credit of the payment (its target). */
export const latePaymentForfeitReference = (paymentId: string, targetCents: number) => `forfeit:payment:${paymentId}:${targetCents}`;

/**
 * Call right after a payment's credit entry was posted (`postLedgerEntry` holds the user's row lock):
 * `creditedCents` is what that entry added to the balance (after any settlement of an outstanding
 * amount), `targetCents` the payment's credited total it names.
 */
export async function afterPaymentCredited(
  tx: Tx,
  deps: LatePaymentDeps,
  payment: CreditedPayment,
  creditedCents: number,
  targetCents: number,
): Promise<LatePaymentOutcome> {
  const [user] = await tx
    .select({
      username: users.username,
      email: users.email,
      locale: users.locale,
      creditsCents: users.creditsCents,
      closingAt: users.closingAt,
      erasedAt: users.erasedAt,
      closureHeldAt: users.closureHeldAt,
      // By the database's clock, as the erasure job decides it.
      erasureDue: sql<boolean>`(${users.erasureAt} IS NOT NULL AND ${users.erasureAt} <= now())`,
    })
    .from(users)
    .where(eq(users.id, payment.userId))
    .for('update');
  if (!user || (!user.closingAt && !user.erasedAt)) return 'open';

  // A hold keeps the erasure from starting; an account whose erasure already started (or ended) can no
  // longer be restored, so a hold would leave it half-erased: its payment is refunded instead.
  const restorable = !user.erasedAt && (!user.erasureDue || user.closureHeldAt !== null);
  if (restorable) {
    if (!user.closureHeldAt) {
      noteUserChanging(payment.userId);
      await tx
        .update(users)
        .set({ closureHeldAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(users.id, payment.userId));
    }
    if (deps.mail?.started) {
      await deps.mail.queueSafely(tx, {
        userId: payment.userId,
        kind: 'account_closure_held',
        to: user.email,
        mail: accountClosureHeldMail(translatorFor(user.locale), {
          username: user.username,
          priceCents: payment.priceAmountCents,
          currency: payment.payCurrency.toUpperCase(),
          creditedCents,
          balanceCents: user.creditsCents,
          signInUrl: deps.mail.link('/login'),
        }),
      });
    }
    deps.log.warn(
      { paymentId: payment.id, userId: payment.userId, creditedCents },
      'payment finished for a closing account: its erasure waits for a new decision',
    );
    return 'held';
  }

  const writeOff = Math.min(creditedCents, user.creditsCents);
  if (writeOff > 0) {
    await postLedgerEntry(
      tx,
      {
        userId: payment.userId,
        amountCents: -writeOff,
        kind: 'forfeit',
        reference: latePaymentForfeitReference(payment.id, targetCents),
        description: ledgerText('latePaymentSetAside', {}),
        metadata: { reason: 'payment-after-erasure', paymentId: payment.id },
      },
      deps.events,
    );
  }
  await tx
    .insert(latePaymentRefunds)
    .values({
      paymentId: payment.id,
      userId: payment.userId,
      writtenOffCents: writeOff,
      priceAmountCents: payment.priceAmountCents,
      payCurrency: payment.payCurrency,
    })
    .onConflictDoUpdate({
      target: latePaymentRefunds.paymentId,
      set: { writtenOffCents: sql`${latePaymentRefunds.writtenOffCents} + ${writeOff}`, updatedAt: sql`now()` },
    });
  // The staff signal: the queue in the console, and this line for alerting.
  deps.log.warn(
    { paymentId: payment.id, userId: payment.userId, writtenOffCents: writeOff },
    'payment finished after its account was erased: queued for a refund to the sender',
  );
  return 'refund-queued';
}

export function toLatePaymentDto(row: LatePaymentRefundRow): LatePaymentRefund {
  return {
    _id: row.id,
    paymentId: row.paymentId,
    userId: row.userId,
    writtenOffCents: row.writtenOffCents,
    priceAmountCents: row.priceAmountCents,
    payCurrency: row.payCurrency,
    createdAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
    refundNote: row.refundNote,
  };
}

/** The staff queue: every late payment still to refund, oldest first, then those refunded in the last 30 days. */
export async function listLatePayments(db: DbOrTx): Promise<LatePaymentRefund[]> {
  const rows = await db
    .select()
    .from(latePaymentRefunds)
    .where(or(isNull(latePaymentRefunds.refundedAt), gt(latePaymentRefunds.refundedAt, sql`now() - interval '30 days'`)))
    .orderBy(sql`${latePaymentRefunds.refundedAt} IS NOT NULL`, asc(latePaymentRefunds.createdAt), desc(latePaymentRefunds.refundedAt))
    .limit(500);
  return rows.map(toLatePaymentDto);
}

/** An admin records that the money of a late payment went back to its sender; audit-logged. Once only. */
export async function markLatePaymentRefunded(
  db: DbOrTx,
  actor: { id: string; username: string },
  id: string,
  note: string,
): Promise<LatePaymentRefund> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(latePaymentRefunds).where(eq(latePaymentRefunds.id, id)).for('update');
    if (!row) throw notFound('No late payment with this id');
    if (row.refundedAt) throw new AppError('ALREADY_REFUNDED', 'This payment was already recorded as refunded');
    const [updated] = await tx
      .update(latePaymentRefunds)
      .set({ refundedAt: sql`now()`, refundedBy: actor.id, refundNote: note, updatedAt: sql`now()` })
      .where(eq(latePaymentRefunds.id, id))
      .returning();
    await recordAudit(tx, {
      actor,
      action: 'late-payment.refunded',
      targetType: 'payment',
      targetId: row.paymentId,
      before: {
        writtenOffCents: row.writtenOffCents,
        priceAmountCents: row.priceAmountCents,
        payCurrency: row.payCurrency,
        refundedAt: null,
      },
      after: { refundedAt: 'now' },
      reason: note,
    });
    return toLatePaymentDto(updated!);
  });
}

/**
 * The provider sent a late payment's money back itself (a `refunded` status): the queue's row is closed
 * as refunded, with no staff actor. Answers whether the payment was in the queue; then the caller posts
 * no reversal (its credits were already written off, so nothing is left to take back).
 */
export async function settleLatePaymentByProvider(tx: Tx, paymentId: string, status: string): Promise<boolean> {
  const [row] = await tx.select().from(latePaymentRefunds).where(eq(latePaymentRefunds.paymentId, paymentId)).for('update');
  if (!row) return false;
  if (!row.refundedAt) {
    await tx
      .update(latePaymentRefunds)
      .set({ refundedAt: sql`now()`, refundNote: `The payment provider reported the payment ${status}.`, updatedAt: sql`now()` })
      .where(eq(latePaymentRefunds.id, row.id));
  }
  return true;
}
