import { REWARD_CLAIM_VALIDITY_MS } from '#shared/constants.js';
import type { CreateExchangeBody, RateType } from '#shared/schemas/exchange.js';
import { unprocessable } from '#server/errors.js';
import type { ExchangeServiceDeps } from './exchange-deps.js';
import type { ExchangeQuotes } from './exchange-quotes.js';
import { decimal, type ExchangeOwner } from './exchange-rows.js';
import { exchanges, type ExchangeRow } from './exchange.tables.js';
import { checkPayout, checkRefund } from './payout-address.js';
import { hashClaimCode, newClaimCode, rewardCentsFor } from './rewards.js';

/**
 * Creates the exchange at the provider and keeps it; a guest's answer carries the claim code, once.
 * A fixed-rate exchange is made with the quote's `rateId`; an expired or unknown quote is refused
 * with a new one in `details.quote`.
 */
export async function createExchange(
  deps: ExchangeServiceDeps,
  quotes: ExchangeQuotes,
  owner: ExchangeOwner,
  body: CreateExchangeBody,
): Promise<{ row: ExchangeRow; claimCode: string | null }> {
  const from = body.from;
  const to = body.to;
  const extraId = body.payoutExtraId ? body.payoutExtraId : undefined;
  const refundAddress = body.refundAddress ? body.refundAddress : undefined;
  const refundExtraId = body.refundExtraId ? body.refundExtraId : undefined;
  const rateType: RateType = body.rateType ?? 'floating';
  const rateId = body.rateId ? body.rateId : undefined;
  await quotes.assertPair(from, to);
  const fields = checkPayout(to, body.payoutAddress, extraId);
  if (refundAddress) Object.assign(fields, checkRefund(from, refundAddress, refundExtraId));
  else if (refundExtraId) fields.refundAddress = 'Enter the refund address this memo belongs to';
  if (rateType === 'fixed' && !rateId) fields.rateId = 'Get a fixed-rate quote first';
  if (rateType === 'floating' && rateId) fields.rateId = 'A floating-rate exchange takes no fixed-rate quote';
  if (Object.keys(fields).length > 0) {
    const code = fields.rateId
      ? 'FIXED_RATE_REQUIRED'
      : fields.payoutAddress || fields.payoutExtraId
        ? 'INVALID_PAYOUT_ADDRESS'
        : 'INVALID_REFUND_ADDRESS';
    throw unprocessable(Object.values(fields)[0]!, code, { fields });
  }
  const { min, max } = await quotes.providerRange(from, to, rateType);
  quotes.assertInRange(from, body.amount, min, max);
  const usdValueCents = await quotes.usdValueCents(from, body.amount);
  const rewardCents = rewardCentsFor(usdValueCents, deps.rewardPercent);

  const input = {
    from,
    to,
    address: body.payoutAddress,
    amount: body.amount,
    ...(extraId ? { extraId } : {}),
    ...(refundAddress ? { refundAddress } : {}),
    ...(refundExtraId ? { refundExtraId } : {}),
  };
  let created;
  try {
    created = rateId ? await deps.client.createFixedTransaction({ ...input, rateId }) : await deps.client.createTransaction(input);
  } catch (err) {
    const mapped = quotes.mapProviderError(err);
    if (mapped.code === 'FIXED_RATE_EXPIRED' || mapped.code === 'FIXED_RATE_UNKNOWN')
      throw await quotes.quoteRefused(mapped.code, from, to, body.amount);
    throw mapped;
  }
  if (!created?.id || !created.payinAddress) throw quotes.providerDown(new Error('provider answered without an id or deposit address'));
  const validUntil = rateId && typeof created.validUntil === 'string' ? new Date(created.validUntil) : null;

  const claimCode = owner.kind === 'guest' ? newClaimCode() : null;
  const [row] = await deps.db
    .insert(exchanges)
    .values({
      userId: owner.kind === 'user' ? owner.userId : null,
      guestId: owner.kind === 'guest' ? owner.guestId : null,
      providerExchangeId: String(created.id),
      status: 'waiting',
      fromCurrency: from,
      toCurrency: to,
      amountFrom: String(body.amount),
      expectedAmountTo: decimal(created.amount),
      payinAddress: created.payinAddress,
      payinExtraId: created.payinExtraId ? String(created.payinExtraId) : null,
      payoutAddress: body.payoutAddress,
      payoutExtraId: extraId ?? null,
      refundAddress: refundAddress ?? null,
      refundExtraId: refundExtraId ?? null,
      rateType,
      rateId: rateId ?? null,
      rateValidUntil: validUntil && !Number.isNaN(validUntil.getTime()) ? validUntil : null,
      usdValueCents,
      rewardCents,
      rewardMode: claimCode ? 'claim' : 'direct',
      claimCodeHash: claimCode ? hashClaimCode(claimCode) : null,
      claimDeadline: claimCode ? new Date(Date.now() + REWARD_CLAIM_VALIDITY_MS) : null,
      providerData: created,
    })
    .returning();
  deps.log.info(
    { exchangeId: row!.id, providerExchangeId: created.id, from, to, rateType, owner: owner.kind, rewardCents },
    'exchange created',
  );
  return { row: row!, claimCode };
}
