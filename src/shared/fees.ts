import { FEE_TIERS } from './constants.js';

export interface FeeBreakdown {
  /** The payment amount in USD cents. */
  amountCents: number;
  feePercent: number;
  feeCents: number;
  /** Credits the user receives, in cents (1 credit = 1 USD). */
  creditsCents: number;
}

/** The fee tier for a USD amount given in cents (docs/product.md#constants). */
export function feePercentFor(amountCents: number): number {
  const usd = amountCents / 100;
  for (const tier of FEE_TIERS) {
    if (usd >= tier.minUsd) return tier.percent;
  }
  return FEE_TIERS[FEE_TIERS.length - 1]!.percent;
}

/**
 * Fee and credits for a payment of `amountCents`. The fee is rounded to the cent half away from
 * zero (docs/product.md#payments); integer arithmetic keeps it exact.
 */
export function calculateFee(amountCents: number): FeeBreakdown {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError('amountCents must be a non-negative safe integer');
  }
  const feePercent = feePercentFor(amountCents);
  // amountCents * percent / 100, rounded half up (amounts are never negative).
  const feeCents = Math.floor((amountCents * feePercent + 50) / 100);
  return { amountCents, feePercent, feeCents, creditsCents: amountCents - feeCents };
}

/** Dollars (as typed by a person or sent by a provider) to integer cents, half away from zero. */
export function toCents(dollars: number): number {
  const sign = dollars < 0 ? -1 : 1;
  return sign * Math.round(Math.abs(dollars) * 100 + Number.EPSILON * 100);
}

/** "97.00" style display of a cent amount. */
export function formatCredits(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * The smallest payment (USD cents) whose credits after the fee cover `creditsCents` (a purchase's
 * shortfall, docs/product.md#receipts). Credits never fall as the payment grows (a higher tier only lowers the fee),
 * so a binary search between the credits themselves and the payment at the highest fee finds it.
 */
export function paymentCentsForCredits(creditsCents: number): number {
  if (!Number.isSafeInteger(creditsCents) || creditsCents <= 0) return 0;
  const highestPercent = Math.max(...FEE_TIERS.map((t) => t.percent));
  let low = creditsCents;
  let high = Math.ceil((creditsCents * 100) / (100 - highestPercent)) + 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (calculateFee(mid).creditsCents >= creditsCents) high = mid;
    else low = mid + 1;
  }
  return low;
}
