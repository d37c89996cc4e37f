import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '#shared/schemas/common.js';
import type { MyPaymentsQuery } from '#shared/schemas/payments.js';
import { InvalidatedCache } from '#server/db/invalidated-cache.js';
import { notFound } from '#server/errors.js';
import { latestEntryIdFor } from '#server/modules/credits/ledger.service.js';
import type { PaymentStatusEntry } from './payment-rows.js';
import type { PaymentsServiceDeps } from './payments-deps.js';
import { payments, type PaymentRow } from './payments.tables.js';

/** A user's own payments as the pages read them: one payment, its status poll, the list, the receipt. */
export class PaymentReads {
  /** The payment page polls its status every few seconds: the lookup is built once, not per poll. */
  private readonly ownPaymentQuery;

  /**
   * Status polls answered in memory while status changes are heard (docs/decisions/0170); nothing is
   * kept otherwise. Changes through this instance drop the entry before they commit.
   */
  private readonly statusCache: InvalidatedCache<PaymentStatusEntry>;
  private readonly statusQuery;

  constructor(private readonly deps: PaymentsServiceDeps) {
    const bus = deps.invalidation;
    this.statusCache = new InvalidatedCache<PaymentStatusEntry>({
      live: () => bus?.live ?? false,
      longTtlMs: 10 * 60_000,
      shortTtlMs: 0,
      maxEntries: 50_000,
    });
    bus?.onKey((kind, id) => {
      if (kind === 'p') this.statusCache.forget(id);
    });
    bus?.onReset(() => this.statusCache.forgetAll());
    this.statusQuery = deps.db
      .select({
        userId: payments.userId,
        status: payments.status,
        priceAmountCents: payments.priceAmountCents,
        payCurrency: payments.payCurrency,
      })
      .from(payments)
      .where(eq(payments.id, sql.placeholder('paymentId')))
      .limit(1)
      .prepare('');
    this.ownPaymentQuery = deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, sql.placeholder('paymentId')), eq(payments.userId, sql.placeholder('userId'))))
      .limit(1)
      .prepare('');
  }

  /** Drops a payment's cached status: every change through this instance calls it before it commits. */
  forgetStatus(paymentId: string): void {
    this.statusCache.forget(paymentId);
  }

  /**
   * The caller's own payment, or 404 (another user's payment does not exist for them). Only our
   * payment ids are looked up: anything else (even 36 dashes) is not a payment and must not reach a
   * uuid column.
   */
  async getOwn(userId: string, paymentId: string): Promise<PaymentRow> {
    if (!isUuid(paymentId)) throw notFound('Payment not found');
    const [row] = await this.ownPaymentQuery.execute({ paymentId, userId });
    if (!row) throw notFound('Payment not found');
    return row;
  }

  /** The receipt of what this payment credited: its newest `payment` ledger entry, or null (decision 0239). */
  async receiptEntryId(row: Pick<PaymentRow, 'id' | 'userId'>): Promise<string | null> {
    return latestEntryIdFor(this.deps.db, row.userId, 'payment', `payment:${row.id}`);
  }

  /** The status poll: the payment's status if it is this user's (cached while changes are heard). */
  async getOwnStatus(userId: string, paymentId: string): Promise<PaymentStatusEntry> {
    if (!isUuid(paymentId)) throw notFound('Payment not found');
    const entry = await this.statusCache.get(paymentId, async (id) => (await this.statusQuery.execute({ paymentId: id }))[0] ?? null);
    if (!entry || entry.userId !== userId) throw notFound('Payment not found');
    return entry;
  }

  async listMine(userId: string, query: MyPaymentsQuery): Promise<{ rows: PaymentRow[]; total: number }> {
    const filters: SQL[] = [eq(payments.userId, userId)];
    if (query.status) filters.push(eq(payments.status, query.status));
    if (query.currency) filters.push(eq(payments.payCurrency, query.currency));
    const where = and(...filters);
    const rows = await this.deps.db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total] = await this.deps.db.select({ n: count() }).from(payments).where(where);
    return { rows, total: total?.n ?? 0 };
  }
}
