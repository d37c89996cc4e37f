import { and, eq } from 'drizzle-orm';
import { PAYMENT_EXPIRY_S } from '#shared/constants.js';
import { calculateFee, toCents } from '#shared/fees.js';
import { AppError, notFound } from '#server/errors.js';
import type { KeyedLock } from './keyed-lock.js';
import { decimalString, ipnMismatches } from './payment-rules.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import type { PaymentsServiceDeps, UpdateSource } from './payments-deps.js';
import { payments, type PaymentRow } from './payments.tables.js';
import type { ProviderUpdates } from './provider-updates.js';

/**
 * The single IPN path: an IPN the batch does not take (ipn-batch.ts), a failed batch's IPNs, and a
 * re-deposit that reconciliation found at the provider.
 */
export class SingleIpn {
  constructor(
    private readonly deps: PaymentsServiceDeps,
    /** The service's lock, shared with the update path (PaymentsService.paymentLock). */
    private readonly paymentLock: KeyedLock,
    private readonly updates: ProviderUpdates,
  ) {}

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
   * What an IPN does, also for a re-deposit reconciliation found at the provider (`source`). Callers
   * hold the `ipn:<providerId>` key of the shared lock (handleIpn, Reconciliation.discoverRedeposits).
   */
  async handleIpnLocked(providerId: string, body: NowPaymentsPayment, source: UpdateSource): Promise<PaymentRow> {
    let [row] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'nowpayments'), eq(payments.providerPaymentId, providerId)))
      .limit(1);
    if (!row && body.parent_payment_id != null) row = await this.createRedeposit(body);
    if (!row) throw notFound('Unknown payment');
    if (!row.parentPaymentId || row.providerPaymentId === providerId) this.assertMatches(row, body);
    return this.updates.applyProviderUpdate(row.id, body, source);
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
}
