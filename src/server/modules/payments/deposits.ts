import { sql, eq } from 'drizzle-orm';
import { PAYMENT_EXPIRY_S } from '#shared/constants.js';
import { calculateFee, formatCredits, toCents } from '#shared/fees.js';
import type { CryptoOption } from '#shared/schemas/payments.js';
import { AppError, unprocessable } from '#server/errors.js';
import { decimalString, nextStatus } from './payment-rules.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import type { PaymentsServiceDeps } from './payments-deps.js';
import { payments, type PaymentRow } from './payments.tables.js';
import { providerDown } from './provider-down.js';

const CRYPTO_CACHE_MS = 10 * 60 * 1000;

/** New deposits: the coins on offer and a payment created at the provider (PaymentsService delegates here). */
export class Deposits {
  private cryptoCache: { at: number; list: CryptoOption[] } | null = null;

  constructor(private readonly deps: PaymentsServiceDeps) {}

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
      throw providerDown(this.deps.log, err);
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
          {
            fields: { amount: `The minimum for ${crypto.toUpperCase()} is ${formatCredits(Math.ceil(min.fiat_equivalent * 100))} USD` },
            currency: crypto.toUpperCase(),
            minCents: Math.ceil(min.fiat_equivalent * 100),
          },
        );
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw providerDown(this.deps.log, err);
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
      throw providerDown(this.deps.log, err);
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
}
