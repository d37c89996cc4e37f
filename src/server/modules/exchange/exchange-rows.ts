import type { Exchange } from '#shared/schemas/exchange.js';
import type { ExchangeRow } from './exchange.tables.js';

export type ExchangeOwner = { kind: 'user'; userId: string } | { kind: 'guest'; guestId: string };

/** A provider's number as our decimal string (no float noise), or null. */
export function decimal(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n < 0) return null;
  return typeof value === 'string' ? value : String(Number(n.toFixed(8)));
}

export function toExchangeDto(row: ExchangeRow): Exchange {
  return {
    _id: row.id,
    providerExchangeId: row.providerExchangeId,
    status: row.status,
    from: row.fromCurrency,
    to: row.toCurrency,
    amount: row.amountFrom,
    expectedAmount: row.expectedAmountTo,
    amountSent: row.amountSent,
    amountReceived: row.amountReceived,
    payinAddress: row.payinAddress,
    payinExtraId: row.payinExtraId,
    payoutAddress: row.payoutAddress,
    payoutExtraId: row.payoutExtraId,
    refundAddress: row.refundAddress,
    refundExtraId: row.refundExtraId,
    rateType: row.rateType,
    rateId: row.rateId,
    rateValidUntil: row.rateValidUntil ? row.rateValidUntil.toISOString() : null,
    payinHash: row.payinHash,
    payoutHash: row.payoutHash,
    usdValue: row.usdValueCents / 100,
    rewardAmount: (row.earnedRewardCents ?? row.rewardCents) / 100,
    rewardMode: row.rewardMode,
    rewardCredited: row.rewardCreditedAt !== null,
    claimDeadline: row.rewardMode === 'claim' && row.claimDeadline ? row.claimDeadline.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}
