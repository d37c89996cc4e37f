import { and, count, desc, eq, inArray, isNotNull, lt, or, isNull, sql, gt, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PAYMENT_EXPIRY_S } from '#shared/constants.js';
import { calculateFee, formatCredits, toCents } from '#shared/fees.js';
import { isUuid } from '#shared/schemas/common.js';
import type { CryptoOption, MyPaymentsQuery, Payment, PaymentStatus, PaymentStatusResponse } from '#shared/schemas/payments.js';
import type { NowPaymentsConfig } from '#server/config.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { InvalidatedCache } from '#server/db/invalidated-cache.js';
import type { InvalidationBus } from '#server/db/invalidation.js';
import { AppError, notFound, unprocessable } from '#server/errors.js';
import { latestEntryIdFor, postLedgerEntry, reverseWithDebt } from '#server/modules/credits/ledger.service.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { notifyPaymentCredited } from '#server/modules/mail/notifications.js';
import { paymentNotice } from '#server/modules/notifications/notices.js';
import {
  afterPaymentCredited,
  settleLatePaymentByProvider,
  type LatePaymentOutcome,
} from '#server/modules/account-closure/late-payments.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { IpnBatcher, type IpnOutcome } from './ipn-batch.js';
import { KeyedLock } from './keyed-lock.js';
import { creditDue, decimalString, ipnMismatches, nextStatus, REVERSAL_STATUSES } from './payment-rules.js';
import { NowPaymentsError, type NowPaymentsClient, type NowPaymentsPayment } from './nowpayments.client.js';
import { payments, type PaymentRow } from './payments.tables.js';
import { paymentEvents } from './payment-events.tables.js';

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

export function toPaymentDto(row: PaymentRow): Payment {
  return {
    _id: row.id,
    providerPaymentId: row.providerPaymentId,
    status: row.status,
    priceAmount: row.priceAmountCents / 100,
    priceCurrency: row.priceCurrency,
    payCurrency: row.payCurrency,
    payAmount: row.payAmount,
    payAddress: row.payAddress,
    extraId: row.payinExtraId,
    network: row.network,
    feePercent: row.feePercent,
    fee: row.feeCents / 100,
    credits: row.creditsCents / 100,
    creditedAmount: row.creditedCents / 100,
    actuallyPaid: row.actuallyPaid,
    txHash: row.txHash,
    failureReason: row.failureReason,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

export function toStatusResponse(row: Pick<PaymentRow, 'status' | 'priceAmountCents' | 'payCurrency'>): PaymentStatusResponse {
  return {
    success: true,
    paymentData: { payment_status: row.status, price_amount: row.priceAmountCents / 100, pay_currency: row.payCurrency },
  };
}

export type UpdateSource = 'ipn' | 'reconcile' | 'check';

export interface PaymentsServiceDeps {
  db: Db;
  client: NowPaymentsClient;
  config: NowPaymentsConfig;
  limitsUsd: { min: number; max: number };
  /** Where the provider sends IPNs for new payments. */
  ipnCallbackUrl: () => string;
  log: FastifyBaseLogger;
  webhookEvents: WebhookEvents;
  /** "Payment credited" mails (optional: a service built without it sends none). */
  mail?: MailService;
  /** In-app and chat notices of each status step (optional like mail). */
  notifications?: NotificationsService;
  /** Status changes heard from every instance: without it, each status poll reads the database. */
  invalidation?: InvalidationBus;
}

/** What the status poll answers; a payment's price and currency never change, its status does. */
interface PaymentStatusEntry {
  userId: string;
  status: PaymentRow['status'];
  priceAmountCents: number;
  payCurrency: string;
}

const CRYPTO_CACHE_MS = 10 * 60 * 1000;
/** Our payment ids; anything else (even 36 dashes) is not a payment and must not reach a uuid column. */
export class PaymentsService {
  private cryptoCache: { at: number; list: CryptoOption[] } | null = null;
  private readonly paymentLock = new KeyedLock();
  private warnedNoLogin = false;

  /** The payment page polls its status every few seconds: the lookup is built once, not per poll. */
  private readonly ownPaymentQuery;

  /**
   * Status polls answered in memory while status changes are heard (docs/decisions/0170); nothing is
   * kept otherwise. Changes through this instance drop the entry before they commit.
   */
  private readonly statusCache: InvalidatedCache<PaymentStatusEntry>;
  private readonly statusQuery;
  /** Signed IPNs applied in batches (docs/decisions/0191); the unusual ones through handleIpn. */
  private readonly ipnBatcher: IpnBatcher;

  constructor(private readonly deps: PaymentsServiceDeps) {
    this.ipnBatcher = new IpnBatcher({
      db: deps.db,
      log: deps.log,
      webhookEvents: deps.webhookEvents,
      mail: deps.mail,
      notifications: deps.notifications,
      forget: (paymentId) => this.statusCache.forget(paymentId),
      single: (body) => this.handleIpn(body),
    });
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

  get limits(): { minAmount: number; maxAmount: number } {
    return { minAmount: this.deps.limitsUsd.min, maxAmount: this.deps.limitsUsd.max };
  }

  /** The merchant's enabled coins, named from the full currency list; cached for a few minutes. */
  async listCryptos(): Promise<CryptoOption[]> {
    if (this.cryptoCache && Date.now() - this.cryptoCache.at < CRYPTO_CACHE_MS) return this.cryptoCache.list;
    const [selected, full] = await Promise.all([this.deps.client.merchantCoins(), this.deps.client.fullCurrencies()]);
    const byCode = new Map(full.map((c) => [c.code.toLowerCase(), c]));
    const list: CryptoOption[] = [];
    for (const raw of selected) {
      const code = raw.toLowerCase();
      const info = byCode.get(code);
      if (info && info.enable === false) continue;
      list.push({
        code,
        name: info?.name ?? code.toUpperCase(),
        network: info?.network ?? null,
        hasExtraId: Boolean(info?.extra_id_exists),
        logoUrl: info?.logo_url ?? null,
      });
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    this.cryptoCache = { at: Date.now(), list };
    return list;
  }

  /** Creates a payment at the provider for `amountUsd` in `crypto`; the row exists before the call. */
  async createDeposit(userId: string, crypto: string, amountUsd: number): Promise<PaymentRow> {
    const amountCents = toCents(amountUsd);
    const { min, max } = this.deps.limitsUsd;
    if (amountCents < toCents(min) || amountCents > toCents(max)) {
      throw unprocessable(
        `Amount must be between ${formatCredits(toCents(min))} and ${formatCredits(toCents(max))} USD`,
        'AMOUNT_OUT_OF_RANGE',
        { fields: { amount: `Enter an amount from ${formatCredits(toCents(min))} to ${formatCredits(toCents(max))} USD` }, min, max },
      );
    }
    let cryptos: CryptoOption[];
    try {
      cryptos = await this.listCryptos();
    } catch (err) {
      throw this.providerDown(err);
    }
    if (!cryptos.some((c) => c.code === crypto)) {
      throw unprocessable('That currency is not available', 'CURRENCY_UNAVAILABLE', {
        fields: { crypto: 'That currency is not available' },
      });
    }
    try {
      const min = await this.deps.client.minAmount(crypto, crypto);
      if (typeof min.fiat_equivalent === 'number' && amountCents < toCents(min.fiat_equivalent)) {
        throw unprocessable(
          `The minimum for ${crypto.toUpperCase()} is ${formatCredits(Math.ceil(min.fiat_equivalent * 100))} USD`,
          'AMOUNT_BELOW_PROVIDER_MINIMUM',
          { fields: { amount: `The minimum for ${crypto.toUpperCase()} is ${formatCredits(Math.ceil(min.fiat_equivalent * 100))} USD` } },
        );
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw this.providerDown(err);
    }

    const fee = calculateFee(amountCents);
    const [row] = await this.deps.db
      .insert(payments)
      .values({
        userId,
        status: 'pending',
        priceAmountCents: amountCents,
        payCurrency: crypto,
        feePercent: fee.feePercent,
        feeCents: fee.feeCents,
        creditsCents: fee.creditsCents,
        expiresAt: new Date(Date.now() + PAYMENT_EXPIRY_S * 1000),
      })
      .returning();
    const pending = row!;

    let created: NowPaymentsPayment;
    try {
      created = await this.deps.client.createPayment({
        price_amount: amountCents / 100,
        price_currency: 'usd',
        pay_currency: crypto,
        order_id: pending.id,
        order_description: `Olympus credits: ${formatCredits(fee.creditsCents)}`,
        ipn_callback_url: this.deps.ipnCallbackUrl(),
        is_fixed_rate: false,
        is_fee_paid_by_user: false,
      });
    } catch (err) {
      await this.deps.db
        .update(payments)
        .set({ status: 'failed', failureReason: 'The payment provider could not create the payment', updatedAt: sql`now()` })
        .where(eq(payments.id, pending.id));
      throw this.providerDown(err);
    }

    const [updated] = await this.deps.db
      .update(payments)
      .set({
        providerPaymentId: String(created.payment_id),
        status: nextStatus('pending', created.payment_status ?? 'waiting'),
        payAmount: decimalString(created.pay_amount),
        payAddress: created.pay_address,
        payinExtraId: created.payin_extra_id ? String(created.payin_extra_id) : null,
        network: created.network ?? null,
        providerData: created,
        updatedAt: sql`now()`,
      })
      .where(eq(payments.id, pending.id))
      .returning();
    this.deps.log.info({ paymentId: pending.id, providerPaymentId: String(created.payment_id), crypto, amountCents }, 'deposit created');
    return updated!;
  }

  private providerDown(err: unknown): AppError {
    this.deps.log.error({ err }, 'NOWPayments call failed');
    // A 400 is the provider refusing this deposit (an amount or currency it will not take right now);
    // anything else is the provider being unreachable.
    if (err instanceof NowPaymentsError && err.status === 400) {
      return new AppError('PAYMENT_PROVIDER_REFUSED', 'The payment provider refused this deposit. Try another amount or currency.');
    }
    return new AppError('PAYMENT_PROVIDER_ERROR', 'The payment provider is not available right now. Please try again in a few minutes.');
  }

  /** The caller's own payment, or 404 (another user's payment does not exist for them). */
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

  /** Records the user's transaction hash and asks the provider now. */
  async check(userId: string, paymentId: string, txHash: string): Promise<PaymentRow> {
    const own = await this.getOwn(userId, paymentId);
    await this.deps.db
      .update(payments)
      .set({ txHash, updatedAt: sql`now()` })
      .where(eq(payments.id, own.id));
    return (await this.refreshFromProvider(own.id, 'check')) ?? (await this.getOwn(userId, paymentId));
  }

  /** Asks the provider about one payment and applies the answer. */
  async refreshFromProvider(paymentId: string, source: UpdateSource): Promise<PaymentRow | null> {
    const [row] = await this.deps.db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
    if (!row?.providerPaymentId) return row ?? null;
    let remote: NowPaymentsPayment;
    try {
      remote = await this.deps.client.getPayment(row.providerPaymentId);
    } catch (err) {
      if (source === 'check') throw this.providerDown(err);
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
          this.deps.webhookEvents,
        );
        credited = target;
        // A closing or erased account (decision 0305): the closure waits, or the credits are written off
        // and the payment queued for a refund to its sender. Under the user's lock the entry just took.
        if (posted.created) {
          late = await afterPaymentCredited(
            tx,
            { mail: this.deps.mail, webhookEvents: this.deps.webhookEvents, log: this.deps.log },
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
        const result = await reverseWithDebt(
          tx,
          {
            userId: row.userId,
            cents: credited,
            reference: `payment:${row.id}:${status}:${credited}`,
            reason: reversal,
            paymentId: row.id,
            description: `Crypto payment ${status === 'refunded' ? 'refunded' : 'charged back'} (${coin}): its credits taken back`,
            debtDescription: `Crypto payment of ${formatCredits(row.priceAmountCents)} USD (${coin}) ${
              status === 'refunded' ? 'refunded to the sender' : 'charged back'
            } after its ${formatCredits(credited)} credits had been partly spent`,
            metadata: { paymentId: row.id, providerPaymentId: row.providerPaymentId, source },
          },
          this.deps.webhookEvents,
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
      this.statusCache.forget(row.id);
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
      const done = (value: string) => value === 'finished' || value === 'completed';
      if (done(status) && !done(row.status)) {
        await this.deps.webhookEvents.enqueue(tx, row.userId, 'payment.finished', {
          paymentId: row.id,
          status,
          priceAmountCents: row.priceAmountCents,
          creditedCents: credited,
          payCurrency: row.payCurrency,
        });
        // An erased account has nobody to tell (its address is `.invalid`); staff see the refund queue.
        if (late !== 'refund-queued') {
          await notifyPaymentCredited(this.deps.mail, tx, {
            userId: row.userId,
            paymentId: row.id,
            priceAmountCents: row.priceAmountCents,
            feeCents: row.feeCents,
            creditedCents: credited,
            payCurrency: row.payCurrency,
          });
        }
      }
      const notice = late === 'refund-queued' ? null : paymentNotice(row, row.status, status, credited);
      if (notice) await this.deps.notifications?.emit(tx, notice);
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

  /**
   * A signed IPN (signature already checked): find our payment by the provider's id and apply it.
   * A re-deposit (`parent_payment_id`) to one of our payments becomes its own payment for that user.
   */
  async handleIpn(body: NowPaymentsPayment): Promise<PaymentRow> {
    const providerId = body.payment_id != null ? String(body.payment_id) : '';
    if (!providerId) throw new AppError('INVALID_IPN', 'IPN has no payment_id');
    return this.paymentLock.run(`ipn:${providerId}`, () => this.handleIpnLocked(providerId, body, 'ipn'));
  }

  /**
   * A signed IPN as the route receives it: applied with the others arriving at the same time, in one
   * transaction (docs/decisions/0191), and answered once that has committed.
   */
  receiveIpn(body: NowPaymentsPayment): Promise<IpnOutcome> {
    return this.ipnBatcher.submit(body);
  }

  /** What an IPN does, also for a re-deposit reconciliation found at the provider (`source`). */
  private async handleIpnLocked(providerId: string, body: NowPaymentsPayment, source: UpdateSource): Promise<PaymentRow> {
    let [row] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'nowpayments'), eq(payments.providerPaymentId, providerId)))
      .limit(1);
    if (!row && body.parent_payment_id != null) row = await this.createRedeposit(body);
    if (!row) throw notFound('Unknown payment');
    if (!row.parentPaymentId || row.providerPaymentId === providerId) this.assertMatches(row, body);
    return this.applyProviderUpdate(row.id, body, source);
  }

  /** The IPN must describe the payment we created: same order, currency and price. */
  private assertMatches(row: PaymentRow, body: NowPaymentsPayment): void {
    const problems = ipnMismatches(row, body);
    if (problems.length > 0) {
      this.deps.log.warn({ paymentId: row.id, problems }, 'IPN does not match the stored payment; refused');
      throw new AppError('IPN_MISMATCH', `IPN does not match the payment (${problems.join(', ')})`);
    }
  }

  private async createRedeposit(body: NowPaymentsPayment): Promise<PaymentRow | undefined> {
    const [parent] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'nowpayments'), eq(payments.providerPaymentId, String(body.parent_payment_id))))
      .limit(1);
    if (!parent) return undefined;
    // What the re-deposit is worth: the provider's fiat value of what arrived, else the parent's rate.
    const fiat = Number(body.actually_paid_at_fiat ?? 0);
    const paid = Number(body.actually_paid ?? 0);
    const rateCents = parent.payAmount && Number(parent.payAmount) > 0 ? (parent.priceAmountCents * paid) / Number(parent.payAmount) : 0;
    const priceCents = fiat > 0 ? toCents(fiat) : Math.floor(rateCents);
    if (!(priceCents > 0)) return undefined;
    const fee = calculateFee(priceCents);
    const [row] = await this.deps.db
      .insert(payments)
      .values({
        userId: parent.userId,
        providerPaymentId: String(body.payment_id),
        status: 'waiting',
        priceAmountCents: priceCents,
        payCurrency: parent.payCurrency,
        payAmount: decimalString(body.actually_paid),
        payAddress: parent.payAddress,
        payinExtraId: parent.payinExtraId,
        network: parent.network,
        feePercent: fee.feePercent,
        feeCents: fee.feeCents,
        creditsCents: fee.creditsCents,
        parentPaymentId: parent.providerPaymentId,
        expiresAt: new Date(Date.now() + PAYMENT_EXPIRY_S * 1000),
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const [existing] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'nowpayments'), eq(payments.providerPaymentId, String(body.payment_id))))
      .limit(1);
    return existing;
  }

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
          await this.paymentLock.run(`ipn:${providerId}`, () => this.handleIpnLocked(providerId, remote, 'reconcile'));
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
      const after = await this.refreshFromProvider(row.id, 'reconcile');
      if (after && (after.status !== row.status || after.creditedCents !== row.creditedCents)) changed++;
    }
    return { checked: due.length, changed };
  }
}
