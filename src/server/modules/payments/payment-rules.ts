import { calculateFee, toCents } from '#shared/fees.js';
import type { PaymentStatus } from '#shared/schemas/payments.js';
import type { DebtReason } from '#server/modules/credits/credits.tables.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import type { PaymentRow } from './payments.tables.js';
import { ledgerText } from '#shared/ledger-texts.js';

// The payment rules: pure functions of a payment row and what the provider says, shared by the
// single path (provider-updates.ts, ipn-single.ts) and the IPN batch (ipn-batch.ts). No database, no I/O.

/** Provider statuses before the money arrives, in the order they happen. */
const PROGRESS_RANK: Partial<Record<PaymentStatus, number>> = {
  pending: 0,
  waiting: 1,
  confirming: 2,
  confirmed: 3,
  sending: 4,
};
const PROVIDER_STATUSES = new Set<string>([
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
]);
/**
 * Provider statuses that send the money back to the sender after it may have been credited, and the
 * reason the account owes what cannot be taken back (docs/decisions/0120). NOWPayments documents
 * `refunded` only (docs/providers.md); a chargeback-like status would be added here.
 */
export const REVERSAL_STATUSES: Partial<Record<PaymentStatus, DebtReason>> = { refunded: 'refunded' };

/**
 * Where a payment goes given what the provider says now. IPNs arrive late, duplicated and out of
 * order: progress never goes backwards, `finished` wins over anything but a reversal (a late payment
 * still credits), `completed` (credited) only gives way to a reversal, and a reversal is final (a
 * stale `finished` arriving after a refund must not credit again).
 */
export function nextStatus(current: PaymentStatus, incoming: string): PaymentStatus {
  if (REVERSAL_STATUSES[current]) return current;
  if (current === 'completed') return REVERSAL_STATUSES[incoming as PaymentStatus] ? (incoming as PaymentStatus) : 'completed';
  if (!PROVIDER_STATUSES.has(incoming)) return current;
  const next = incoming as PaymentStatus;
  if (next === 'finished' || current === 'finished') return 'finished';
  const currentRank = PROGRESS_RANK[current];
  const nextRank = PROGRESS_RANK[next];
  if (currentRank !== undefined) {
    return nextRank === undefined || nextRank > currentRank ? next : current;
  }
  // Current is final (partially_paid, failed, refunded, expired). Money that arrives after a failure
  // or an expiry still counts; a refund ends everything else; otherwise keep what we have.
  if (next === 'partially_paid' && (current === 'failed' || current === 'expired')) return next;
  if (next === 'refunded') return next;
  return current;
}

/** Decimal string (as the provider sent a number) without float noise in our own storage. */
export function decimalString(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n < 0) return null;
  return typeof value === 'string' ? value : String(value);
}

/** Credits due for what actually arrived on a partial payment: its USD share, minus that value's fee. */
export function partialCreditsCents(
  row: Pick<PaymentRow, 'priceAmountCents' | 'payAmount' | 'creditsCents'>,
  actuallyPaid: string | null,
): number {
  const paid = Number(actuallyPaid ?? 0);
  const due = Number(row.payAmount ?? 0);
  if (!(paid > 0) || !(due > 0)) return 0;
  // Floor: never credit a fraction of a cent that did not arrive.
  const receivedCents = Math.min(row.priceAmountCents, Math.floor((row.priceAmountCents * paid) / due));
  return Math.min(calculateFee(receivedCents).creditsCents, row.creditsCents);
}

/**
 * What a payment moving to `status` must add to the ledger: the credits still due (`cents`, 0 for
 * none), under which reference and description. Used by the single path and by the IPN batch.
 */
export function creditDue(
  row: Pick<PaymentRow, 'id' | 'priceAmountCents' | 'payAmount' | 'creditsCents' | 'creditedCents' | 'payCurrency'>,
  status: PaymentStatus,
  actuallyPaid: string | null,
): { target: number; cents: number; reference: string; description: string } {
  let target = row.creditedCents;
  if (status === 'finished') target = row.creditsCents;
  else if (status === 'partially_paid') target = Math.max(row.creditedCents, partialCreditsCents(row, actuallyPaid));
  return {
    target,
    cents: Math.max(0, target - row.creditedCents),
    // The first credit of a payment is `payment:<id>`; a later top-up (partial, then finished) names its target.
    reference: row.creditedCents === 0 ? `payment:${row.id}` : `payment:${row.id}:to:${target}`,
    description:
      status === 'partially_paid'
        ? ledgerText('partialCryptoPayment', { coin: row.payCurrency.toUpperCase() })
        : ledgerText('cryptoTopUp', { priceCents: row.priceAmountCents, coin: row.payCurrency.toUpperCase() }),
  };
}

/** How an IPN differs from the payment we created (order, currency, price); empty when it matches. */
export function ipnMismatches(
  row: Pick<PaymentRow, 'id' | 'parentPaymentId' | 'payCurrency' | 'priceAmountCents'>,
  body: NowPaymentsPayment,
): string[] {
  const problems: string[] = [];
  if (body.order_id != null && String(body.order_id) !== row.id && !row.parentPaymentId) problems.push('order_id');
  if (body.pay_currency != null && String(body.pay_currency).toLowerCase() !== row.payCurrency) problems.push('pay_currency');
  if (body.price_amount != null && toCents(Number(body.price_amount)) !== row.priceAmountCents && !row.parentPaymentId) {
    problems.push('price_amount');
  }
  return problems;
}
