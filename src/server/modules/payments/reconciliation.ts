import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { PaymentStatus } from '#shared/schemas/payments.js';
import type { DbOrTx } from '#server/db/client.js';
import { AppError } from '#server/errors.js';
import type { SingleIpn } from './ipn-single.js';
import type { KeyedLock } from './keyed-lock.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import type { PaymentsServiceDeps } from './payments-deps.js';
import { payments, type PaymentRow } from './payments.tables.js';
import type { ProviderUpdates } from './provider-updates.js';

/** Statuses the reconciliation job still asks the provider about. */
export const UNFINISHED_STATUSES: PaymentStatus[] = ['waiting', 'confirming', 'confirmed', 'sending', 'finished'];
/**
 * Final at the provider, yet money can still arrive (after an expiry or a failure, or the rest of a
 * partial payment): asked about less often, so a late payment whose IPN is lost is still credited.
 */
export const LATE_MONEY_STATUSES: PaymentStatus[] = ['partially_paid', 'expired', 'failed'];
const LATE_MONEY_RECHECK_SECONDS = 30 * 60;
/**
 * Credited payments are asked about now and then within the window too, so a refund whose IPN was
 * lost is still reversed (docs/decisions/0120); rarely, since most never change again.
 */
const COMPLETED_RECHECK_SECONDS = 6 * 60 * 60;
/** The provider keeps an unpaid payment open this long (7 days in current docs), plus a margin. */
const RECONCILE_WINDOW_DAYS = 8;
/** A payment the provider never acknowledged is given up after this long. */
const PENDING_GIVE_UP_MS = 15 * 60 * 1000;

/** The reconciliation jobs: payments whose IPN may be lost, and re-deposits only the provider's list shows. */
export class Reconciliation {
  private warnedNoLogin = false;

  constructor(
    private readonly deps: PaymentsServiceDeps,
    /** The service's lock: a re-deposit found here takes the same `ipn:<id>` key as its IPN. */
    private readonly paymentLock: KeyedLock,
    private readonly ipn: SingleIpn,
    private readonly updates: ProviderUpdates,
  ) {}

  /** Payments that may still change at the provider, least recently checked first. */
  async dueForReconciliation(limit: number, minAgeSeconds: number, db: DbOrTx = this.deps.db): Promise<PaymentRow[]> {
    return db
      .select()
      .from(payments)
      .where(
        and(
          isNotNull(payments.providerPaymentId),
          gt(payments.createdAt, sql`now() - make_interval(days => ${RECONCILE_WINDOW_DAYS})`),
          or(
            and(
              inArray(payments.status, UNFINISHED_STATUSES),
              or(isNull(payments.lastCheckedAt), lt(payments.lastCheckedAt, sql`now() - make_interval(secs => ${minAgeSeconds})`)),
            ),
            and(
              inArray(payments.status, LATE_MONEY_STATUSES),
              or(
                isNull(payments.lastCheckedAt),
                lt(payments.lastCheckedAt, sql`now() - make_interval(secs => ${Math.max(minAgeSeconds, LATE_MONEY_RECHECK_SECONDS)})`),
              ),
            ),
            and(
              eq(payments.status, 'completed'),
              or(
                isNull(payments.lastCheckedAt),
                lt(payments.lastCheckedAt, sql`now() - make_interval(secs => ${Math.max(minAgeSeconds, COMPLETED_RECHECK_SECONDS)})`),
              ),
            ),
          ),
        ),
      )
      .orderBy(sql`${payments.lastCheckedAt} asc nulls first`)
      .limit(limit);
  }

  /**
   * Re-deposits whose IPN was lost (docs/decisions/0122): NOWPayments reports money sent again to one
   * of our addresses as a new payment with `parent_payment_id`, which only an IPN would tell us
   * about. This lists the provider's payments of the reconciliation window (`GET /payment/`, which
   * needs the dashboard login's JWT), picks the unknown ones that point at one of ours (by
   * `parent_payment_id`, or by our address when the list leaves that field out), asks for each in
   * full and handles it exactly as its IPN would be: the same lock, row and ledger reference, so an
   * IPN racing this credits once.
   */
  async discoverRedeposits(options: { pageSize?: number; maxPages?: number } = {}): Promise<{ listed: number; found: number }> {
    if (!this.deps.client.canListPayments) {
      if (!this.warnedNoLogin) {
        this.warnedNoLogin = true;
        this.deps.log.warn('NOWPAYMENTS_EMAIL/NOWPAYMENTS_PASSWORD not set: re-deposits whose IPN is lost are not found by reconciliation');
      }
      return { listed: 0, found: 0 };
    }
    const pageSize = options.pageSize ?? 200;
    const maxPages = options.maxPages ?? 25;
    const dateFrom = new Date(Date.now() - RECONCILE_WINDOW_DAYS * 86_400_000).toISOString();
    let listed = 0;
    let found = 0;
    for (let page = 0; page < maxPages; page++) {
      let list;
      try {
        list = await this.deps.client.listPayments({ limit: pageSize, page, sortBy: 'created_at', orderBy: 'desc', dateFrom });
      } catch (err) {
        this.deps.log.warn({ err }, "reconciliation could not list the provider's payments");
        break;
      }
      const items = Array.isArray(list.data) ? list.data : [];
      listed += items.length;
      const ids = items.map((p) => String(p.payment_id ?? '')).filter(Boolean);
      const known = new Set(
        ids.length === 0
          ? []
          : (
              await this.deps.db
                .select({ id: payments.providerPaymentId })
                .from(payments)
                .where(and(eq(payments.provider, 'nowpayments'), inArray(payments.providerPaymentId, ids)))
            ).map((r) => r.id),
      );
      const unknown = items.filter((p) => p.payment_id != null && !known.has(String(p.payment_id)));
      const parents = unknown
        .map((p) => (p.parent_payment_id != null ? String(p.parent_payment_id) : null))
        .filter((x): x is string => Boolean(x));
      const addresses = unknown.map((p) => p.pay_address).filter((x): x is string => typeof x === 'string' && x.length > 0);
      const ours =
        parents.length + addresses.length === 0
          ? []
          : await this.deps.db
              .select({ id: payments.providerPaymentId, address: payments.payAddress })
              .from(payments)
              .where(
                and(
                  eq(payments.provider, 'nowpayments'),
                  or(
                    parents.length ? inArray(payments.providerPaymentId, parents) : undefined,
                    addresses.length ? inArray(payments.payAddress, addresses) : undefined,
                  ),
                ),
              );
      const ourIds = new Set(ours.map((r) => r.id));
      const ourAddresses = new Set(ours.map((r) => r.address));
      for (const item of unknown) {
        const parent = item.parent_payment_id != null ? String(item.parent_payment_id) : null;
        if (!(parent ? ourIds.has(parent) : ourAddresses.has(item.pay_address))) continue;
        const providerId = String(item.payment_id);
        let remote: NowPaymentsPayment;
        try {
          remote = await this.deps.client.getPayment(providerId);
        } catch (err) {
          this.deps.log.warn({ err, providerPaymentId: providerId }, 'reconciliation could not read a possible re-deposit');
          continue;
        }
        // Only the payment's own record decides that it is a re-deposit of one of ours.
        if (remote.parent_payment_id == null || String(remote.payment_id) !== providerId) continue;
        try {
          await this.paymentLock.run(`ipn:${providerId}`, () => this.ipn.handleIpnLocked(providerId, remote, 'reconcile'));
          found++;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          this.deps.log.warn({ err, providerPaymentId: providerId }, 'possible re-deposit not taken');
        }
      }
      if (page + 1 >= Number(list.pagesCount ?? 0) || items.length < pageSize) break;
    }
    if (found > 0) this.deps.log.info({ listed, found }, 're-deposits found by reconciliation');
    return { listed, found };
  }

  /** One reconciliation pass: ask about each unfinished payment; give up on never-acknowledged ones. */
  async reconcile(options: { limit?: number; minAgeSeconds?: number } = {}): Promise<{ checked: number; changed: number }> {
    await this.deps.db
      .update(payments)
      .set({ status: 'failed', failureReason: 'The payment provider never confirmed this payment', updatedAt: sql`now()` })
      .where(
        and(
          eq(payments.status, 'pending'),
          isNull(payments.providerPaymentId),
          lt(payments.createdAt, new Date(Date.now() - PENDING_GIVE_UP_MS)),
        ),
      );
    const due = await this.dueForReconciliation(options.limit ?? 100, options.minAgeSeconds ?? 30);
    let changed = 0;
    for (const row of due) {
      const after = await this.updates.refreshFromProvider(row.id, 'reconcile');
      if (after && (after.status !== row.status || after.creditedCents !== row.creditedCents)) changed++;
    }
    return { checked: due.length, changed };
  }
}
