import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { REWARD_CLAIM_VALIDITY_MS } from '#shared/constants.js';
import { formatCredits } from '#shared/fees.js';
import { isUuid } from '#shared/schemas/common.js';
import {
  FINAL_EXCHANGE_STATUSES,
  type CreateExchangeBody,
  type EstimateResponse,
  type Exchange,
  type ExchangeCurrency,
  type ExchangeRangeResponse,
  type ExchangeStatus,
  type MyExchangesQuery,
  type RateType,
} from '#shared/schemas/exchange.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound, unprocessable } from '#server/errors.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { exchanges, type ExchangeRow } from './exchange.tables.js';
import { checkPayout, checkRefund, supportedCurrency, SUPPORTED_CURRENCIES, USD_REFERENCE_TICKER } from './payout-address.js';
import { exchangeLink } from '#server/modules/notifications/notices.js';
import { earnedRewardCents, hashClaimCode, newClaimCode, rewardCentsFor } from './rewards.js';
import { SwapProviderError, type SwapClient, type SwapCurrency, type SwapTransaction } from './swap.client.js';

export type ExchangeOwner = { kind: 'user'; userId: string } | { kind: 'guest'; guestId: string };

/** Provider statuses before the exchange ends, in the order they happen. */
const PROGRESS_RANK: Partial<Record<ExchangeStatus, number>> = {
  new: 0,
  waiting: 1,
  confirming: 2,
  exchanging: 3,
  sending: 4,
  verifying: 5,
};
const KNOWN_STATUSES = new Set<string>(Object.keys(PROGRESS_RANK).concat(FINAL_EXCHANGE_STATUSES));
/** Statuses the poller asks the provider about. */
export const UNFINISHED_STATUSES = Object.keys(PROGRESS_RANK) as ExchangeStatus[];
/** The poller stops asking about an exchange this old (an address nobody paid into). */
const POLL_WINDOW_DAYS = 7;
/** Reading an unfinished exchange asks the provider again when the last answer is older than this. */
const READ_REFRESH_MS = 10_000;
const CURRENCY_CACHE_MS = 10 * 60 * 1000;

export const EXCHANGE_LIMITS = {
  createPerIp: { name: 'exchange-create:ip', limit: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

/**
 * Where an exchange goes given what the provider says now. Answers arrive late and repeated: progress
 * never goes backwards, `finished` is final, and after `failed` or `expired` only a late `finished`
 * (the coins did arrive and were swapped) or `refunded` can follow.
 */
export function nextExchangeStatus(current: ExchangeStatus, incoming: string): ExchangeStatus {
  if (!KNOWN_STATUSES.has(incoming)) return current;
  const next = incoming as ExchangeStatus;
  if (current === 'finished' || current === 'refunded') return current;
  if (next === 'finished' || next === 'refunded') return next;
  const currentRank = PROGRESS_RANK[current];
  if (currentRank === undefined) return current;
  const nextRank = PROGRESS_RANK[next];
  return nextRank === undefined || nextRank > currentRank ? next : current;
}

/** A provider's number as our decimal string (no float noise), or null. */
function decimal(value: unknown): string | null {
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

export interface ExchangeServiceDeps {
  db: Db;
  client: SwapClient;
  rewardPercent: number;
  log: FastifyBaseLogger;
  webhookEvents: WebhookEvents;
  /** "Exchange finished" and "reward claimed" notices (optional). */
  notifications?: NotificationsService;
}

export type UpdateSource = 'poll' | 'read' | 'sandbox';

export class ExchangeService {
  private currencyCache: { at: number; list: ExchangeCurrency[] } | null = null;

  constructor(private readonly deps: ExchangeServiceDeps) {}

  get rewardPercent(): number {
    return this.deps.rewardPercent;
  }

  private providerDown(err: unknown): AppError {
    this.deps.log.error({ err }, 'swap provider call failed');
    return new AppError('SWAP_PROVIDER_ERROR', 'The exchange service is not available right now. Please try again in a few minutes.');
  }

  /** The provider's active currencies that we can check payout addresses for; cached for a few minutes. */
  async listCurrencies(): Promise<ExchangeCurrency[]> {
    if (this.currencyCache && Date.now() - this.currencyCache.at < CURRENCY_CACHE_MS) return this.currencyCache.list;
    let remote: SwapCurrency[];
    try {
      remote = await this.deps.client.currencies();
    } catch (err) {
      throw this.providerDown(err);
    }
    const list: ExchangeCurrency[] = [];
    for (const c of remote) {
      const ticker = String(c.ticker ?? '').toLowerCase();
      const supported = supportedCurrency(ticker);
      if (!supported || c.isFiat) continue;
      list.push({
        ticker,
        name: String(c.name ?? ticker.toUpperCase()),
        image: typeof c.image === 'string' ? c.image : null,
        hasExternalId: Boolean(supported.extraId),
        externalIdName: supported.extraId?.name ?? null,
        network: supported.network,
      });
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    this.currencyCache = { at: Date.now(), list };
    return list;
  }

  private async assertPair(from: string, to: string): Promise<void> {
    const fields: Record<string, string> = {};
    if (from === to) fields.to = 'Choose two different currencies';
    const available = new Set((await this.listCurrencies()).map((c) => c.ticker));
    if (!available.has(from)) fields.from = 'That currency is not available';
    if (!available.has(to)) fields.to = 'That currency is not available';
    if (Object.keys(fields).length > 0) {
      throw unprocessable(Object.values(fields)[0]!, 'CURRENCY_UNAVAILABLE', { fields });
    }
  }

  /** The pair's limits at the provider for this kind of rate (`exchange-range`). */
  private async providerRange(from: string, to: string, rateType: RateType): Promise<{ min: number; max: number | null }> {
    try {
      const range = await this.deps.client.range(from, to, rateType === 'fixed');
      if (!Number.isFinite(range.minAmount) || range.minAmount < 0) throw new Error('provider answered without a minimum');
      return { min: range.minAmount, max: range.maxAmount };
    } catch (err) {
      throw this.mapProviderError(err);
    }
  }

  /** The pair's minimum and maximum, shown before an amount is typed. */
  async range(from: string, to: string, rateType: RateType): Promise<ExchangeRangeResponse> {
    await this.assertPair(from, to);
    const { min, max } = await this.providerRange(from, to, rateType);
    return { from, to, rateType, minAmount: decimal(min) ?? '0', maxAmount: max === null ? null : decimal(max) };
  }

  /** Refuses an amount outside the pair's limits, naming both limits. */
  private assertInRange(from: string, amount: number, min: number, max: number | null): void {
    const ticker = from.toUpperCase();
    const limits =
      max === null
        ? `The minimum for this pair is ${min} ${ticker}`
        : `The amount must be between ${min} ${ticker} and ${max} ${ticker} for this pair`;
    const details = { fields: { amount: limits }, minAmount: String(min), maxAmount: max === null ? null : String(max) };
    if (amount < min) throw unprocessable(limits, 'AMOUNT_BELOW_MINIMUM', details);
    if (max !== null && amount > max) throw unprocessable(limits, 'AMOUNT_ABOVE_MAXIMUM', details);
  }

  /** The USD value of `amount` of `from`, in cents (rounded down: a reward never rests on more than was worth). */
  async usdValueCents(from: string, amount: number): Promise<number> {
    if (SUPPORTED_CURRENCIES[from]?.usdStable) return Math.floor(amount * 100 + 1e-6);
    try {
      const quote = await this.deps.client.estimate(amount, from, USD_REFERENCE_TICKER);
      const usd = Number(quote.estimatedAmount);
      return Number.isFinite(usd) && usd > 0 ? Math.floor(usd * 100 + 1e-6) : 0;
    } catch (err) {
      throw this.mapProviderError(err);
    }
  }

  /**
   * The estimate, the pair's limits and the reward an exchange of `amount` would earn. A `fixed` one
   * carries the provider's quote (`rateId`) and its expiry; a `floating` one may change until the coins arrive.
   */
  async estimate(from: string, to: string, amount: number, rateType: RateType = 'floating'): Promise<EstimateResponse> {
    await this.assertPair(from, to);
    const { min, max } = await this.providerRange(from, to, rateType);
    let quote: {
      estimatedAmount: number;
      transactionSpeedForecast?: string | null;
      warningMessage?: string | null;
      rateId?: string;
      validUntil?: string;
    };
    try {
      quote =
        rateType === 'fixed' ? await this.deps.client.fixedEstimate(amount, from, to) : await this.deps.client.estimate(amount, from, to);
    } catch (err) {
      throw this.mapProviderError(err);
    }
    let rateId: string | null = null;
    let validUntil: string | null = null;
    if (rateType === 'fixed') {
      const until = typeof quote.validUntil === 'string' ? new Date(quote.validUntil) : null;
      if (typeof quote.rateId !== 'string' || !quote.rateId || !until || Number.isNaN(until.getTime())) {
        throw this.providerDown(new Error('provider answered a fixed-rate estimate without a rateId or validUntil'));
      }
      rateId = quote.rateId;
      validUntil = until.toISOString();
    }
    const usdCents = await this.usdValueCents(from, amount);
    const inRange = amount >= min && (max === null || amount <= max);
    return {
      from,
      to,
      amount,
      estimatedAmount: decimal(quote.estimatedAmount) ?? '0',
      minAmount: decimal(min) ?? '0',
      maxAmount: max === null ? null : decimal(max),
      rateType,
      rateId,
      validUntil,
      usdValue: usdCents / 100,
      reward: { percent: this.deps.rewardPercent, amount: inRange ? rewardCentsFor(usdCents, this.deps.rewardPercent) / 100 : 0 },
      transactionSpeedForecast: quote.transactionSpeedForecast ?? null,
      warningMessage: quote.warningMessage ?? null,
    };
  }

  /** A fixed quote the provider no longer honours (expired or unknown): refused, with a new quote to accept. */
  private async quoteRefused(
    code: 'FIXED_RATE_EXPIRED' | 'FIXED_RATE_UNKNOWN',
    from: string,
    to: string,
    amount: number,
  ): Promise<AppError> {
    const quote = await this.estimate(from, to, amount, 'fixed');
    const time = quote.validUntil ? quote.validUntil.slice(11, 19) : '';
    const reason = code === 'FIXED_RATE_EXPIRED' ? 'That fixed rate has expired' : 'That fixed rate is not known';
    const message = `${reason}. New quote: ${quote.estimatedAmount} ${to.toUpperCase()}, fixed rate valid until ${time} UTC. Check it and create the exchange again.`;
    return unprocessable(message, code, { fields: { rateId: message }, quote });
  }

  /** Provider refusals become answers a person can act on; anything else means the provider is down. */
  private mapProviderError(err: unknown): AppError {
    if (err instanceof AppError) return err;
    if (err instanceof SwapProviderError && err.status >= 400 && err.status < 500) {
      switch (err.code) {
        case 'not_valid_address':
          return unprocessable('The exchange service refused the payout address', 'INVALID_PAYOUT_ADDRESS', {
            fields: { payoutAddress: 'The exchange service refused this address' },
          });
        case 'out_of_range':
        case 'deposit_too_small':
          return unprocessable('The amount is outside the limits for this pair', 'AMOUNT_OUT_OF_RANGE', {
            fields: { amount: 'The amount is outside the limits for this pair' },
          });
        case 'not_valid_rate_id':
          return unprocessable('That fixed rate is not known', 'FIXED_RATE_UNKNOWN');
        case 'rate_id_expired':
          return unprocessable('That fixed rate has expired', 'FIXED_RATE_EXPIRED');
        case 'not_valid_refund_address':
          return unprocessable('The exchange service refused the refund address', 'INVALID_REFUND_ADDRESS', {
            fields: { refundAddress: 'The exchange service refused this address' },
          });
        case 'pair_is_inactive':
          return unprocessable('This pair cannot be exchanged right now', 'PAIR_INACTIVE', {
            fields: { to: 'This pair cannot be exchanged right now' },
          });
        default:
          break;
      }
    }
    return this.providerDown(err);
  }

  /**
   * Creates the exchange at the provider and keeps it; a guest's answer carries the claim code, once.
   * A fixed-rate exchange is made with the quote's `rateId`; an expired or unknown quote is refused
   * with a new one in `details.quote`.
   */
  async create(owner: ExchangeOwner, body: CreateExchangeBody): Promise<{ row: ExchangeRow; claimCode: string | null }> {
    const from = body.from;
    const to = body.to;
    const extraId = body.payoutExtraId ? body.payoutExtraId : undefined;
    const refundAddress = body.refundAddress ? body.refundAddress : undefined;
    const refundExtraId = body.refundExtraId ? body.refundExtraId : undefined;
    const rateType: RateType = body.rateType ?? 'floating';
    const rateId = body.rateId ? body.rateId : undefined;
    await this.assertPair(from, to);
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
    const { min, max } = await this.providerRange(from, to, rateType);
    this.assertInRange(from, body.amount, min, max);
    const usdValueCents = await this.usdValueCents(from, body.amount);
    const rewardCents = rewardCentsFor(usdValueCents, this.deps.rewardPercent);

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
      created = rateId
        ? await this.deps.client.createFixedTransaction({ ...input, rateId })
        : await this.deps.client.createTransaction(input);
    } catch (err) {
      const mapped = this.mapProviderError(err);
      if (mapped.code === 'FIXED_RATE_EXPIRED' || mapped.code === 'FIXED_RATE_UNKNOWN')
        throw await this.quoteRefused(mapped.code, from, to, body.amount);
      throw mapped;
    }
    if (!created?.id || !created.payinAddress) throw this.providerDown(new Error('provider answered without an id or deposit address'));
    const validUntil = rateId && typeof created.validUntil === 'string' ? new Date(created.validUntil) : null;

    const claimCode = owner.kind === 'guest' ? newClaimCode() : null;
    const [row] = await this.deps.db
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
    this.deps.log.info(
      { exchangeId: row!.id, providerExchangeId: created.id, from, to, rateType, owner: owner.kind, rewardCents },
      'exchange created',
    );
    return { row: row!, claimCode };
  }

  private ownerFilter(owner: ExchangeOwner) {
    return owner.kind === 'user' ? eq(exchanges.userId, owner.userId) : and(eq(exchanges.guestId, owner.guestId), isNull(exchanges.userId));
  }

  /** The caller's own exchange (asking the provider again when the last answer is stale), or 404. */
  async getOwn(owner: ExchangeOwner, exchangeId: string): Promise<ExchangeRow> {
    if (!isUuid(exchangeId)) throw notFound('Exchange not found');
    const [row] = await this.deps.db
      .select()
      .from(exchanges)
      .where(and(eq(exchanges.id, exchangeId), this.ownerFilter(owner)))
      .limit(1);
    if (!row) throw notFound('Exchange not found');
    const stale = !row.lastCheckedAt || Date.now() - row.lastCheckedAt.getTime() > READ_REFRESH_MS;
    if (UNFINISHED_STATUSES.includes(row.status) && stale) return (await this.refreshFromProvider(row, 'read')) ?? row;
    return row;
  }

  async listMine(owner: ExchangeOwner, query: MyExchangesQuery): Promise<{ rows: ExchangeRow[]; total: number }> {
    const where = this.ownerFilter(owner);
    const rows = await this.deps.db
      .select()
      .from(exchanges)
      .where(where)
      .orderBy(desc(exchanges.createdAt), desc(exchanges.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total] = await this.deps.db.select({ n: count() }).from(exchanges).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** Asks the provider about one exchange and applies the answer; a provider outage leaves it as it was. */
  async refreshFromProvider(row: ExchangeRow, source: UpdateSource): Promise<ExchangeRow | null> {
    let remote: SwapTransaction;
    try {
      remote = await this.deps.client.transaction(row.providerExchangeId);
    } catch (err) {
      this.deps.log.warn({ err, exchangeId: row.id, source }, 'could not ask the swap provider about an exchange');
      return row;
    }
    return this.applyProviderUpdate(row.id, remote, source);
  }

  /** The sandbox's nudge and any other "this provider exchange changed" signal. */
  async syncByProviderId(providerExchangeId: string, source: UpdateSource): Promise<ExchangeRow | null> {
    const [row] = await this.deps.db.select().from(exchanges).where(eq(exchanges.providerExchangeId, providerExchangeId)).limit(1);
    return row ? this.refreshFromProvider(row, source) : null;
  }

  /**
   * The one place a provider's answer changes an exchange - the poller, a read and the sandbox's nudge
   * all come here. One transaction on one connection: lock the row, move the status, and when it
   * finishes fix the earned reward and, for a `direct` exchange, credit the owner through the ledger
   * (reference `reward:<id>`). The row lock serialises racing callers on every instance; the ledger's
   * unique reference is the last line against a double credit.
   */
  async applyProviderUpdate(exchangeId: string, remote: SwapTransaction, source: UpdateSource): Promise<ExchangeRow> {
    const result = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(exchanges).where(eq(exchanges.id, exchangeId)).for('update');
      if (!row) throw notFound('Exchange not found');
      if (remote.id !== undefined && String(remote.id) !== row.providerExchangeId) {
        throw new AppError('SWAP_PROVIDER_MISMATCH', 'The swap provider answered about another exchange');
      }
      const status = nextExchangeStatus(row.status, String(remote.status ?? ''));
      const amountSent = decimal(remote.amountSend) ?? row.amountSent;
      const amountReceived = decimal(remote.amountReceive) ?? row.amountReceived;
      const finishingNow = status === 'finished' && row.earnedRewardCents === null;
      const earned = finishingNow ? earnedRewardCents(row.rewardCents, row.amountFrom, amountSent) : row.earnedRewardCents;

      let rewardUserId = row.rewardUserId;
      let rewardCreditedAt = row.rewardCreditedAt;
      if (status === 'finished' && row.rewardMode === 'direct' && row.userId && !rewardCreditedAt && (earned ?? 0) > 0) {
        await this.creditReward(tx, row, row.userId, earned!, source);
        rewardUserId = row.userId;
        rewardCreditedAt = new Date();
      }

      const changed =
        status !== row.status ||
        amountSent !== row.amountSent ||
        amountReceived !== row.amountReceived ||
        rewardCreditedAt !== row.rewardCreditedAt;
      const [updated] = await tx
        .update(exchanges)
        .set({
          status,
          amountSent,
          amountReceived,
          payinHash: typeof remote.payinHash === 'string' ? remote.payinHash : row.payinHash,
          payoutHash: typeof remote.payoutHash === 'string' ? remote.payoutHash : row.payoutHash,
          earnedRewardCents: earned,
          rewardUserId,
          rewardCreditedAt,
          finishedAt: finishingNow ? sql`now()` : row.finishedAt,
          providerData: changed ? remote : row.providerData,
          lastCheckedAt: sql`now()`,
          ...(changed ? { updatedAt: sql`now()` } : {}),
        })
        .where(eq(exchanges.id, row.id))
        .returning();
      if (finishingNow && row.userId) {
        await this.deps.webhookEvents.enqueue(tx, row.userId, 'exchange.finished', {
          exchangeId: row.id,
          fromCurrency: row.fromCurrency,
          toCurrency: row.toCurrency,
          amountFrom: row.amountFrom,
          amountReceived,
          earnedRewardCents: earned,
        });
      }
      if (finishingNow) {
        const to = row.userId ? { userId: row.userId } : row.guestId ? { guestId: row.guestId } : null;
        const claimable = row.rewardMode === 'claim' && (earned ?? 0) > 0;
        if (to) {
          await this.deps.notifications?.emit(tx, {
            to,
            event: 'exchange.finished',
            key: `exchange.finished:${row.id}`,
            title: claimable ? 'Exchange finished: your reward is ready' : 'Exchange finished',
            body: `Your exchange of ${row.amountFrom} ${row.fromCurrency.toUpperCase()} to ${row.toCurrency.toUpperCase()} finished.${
              claimable
                ? ` A reward of ${formatCredits(earned!)} credits is ready to claim.`
                : (earned ?? 0) > 0 && rewardCreditedAt
                  ? ` ${formatCredits(earned!)} credits were added to your balance.`
                  : ''
            }`,
            link: exchangeLink(row.id),
          });
        }
      }
      return { before: row, after: updated! };
    });
    if (result.before.status !== result.after.status) {
      this.deps.log.info({ exchangeId, from: result.before.status, to: result.after.status, source }, 'exchange status changed');
    }
    return result.after;
  }

  /** Credits `cents` of an exchange's reward to `userId` once (reference `reward:<id>`); answers whether it posted now. */
  async creditReward(tx: Tx, row: ExchangeRow, userId: string, cents: number, source: string): Promise<boolean> {
    const posted = await postLedgerEntry(
      tx,
      {
        userId,
        amountCents: cents,
        kind: 'reward',
        reference: `reward:${row.id}`,
        description: `Exchange reward: ${row.amountFrom} ${row.fromCurrency.toUpperCase()} to ${row.toCurrency.toUpperCase()} (${formatCredits(cents)} credits)`,
        metadata: { exchangeId: row.id, providerExchangeId: row.providerExchangeId, mode: row.rewardMode, source },
      },
      this.deps.webhookEvents,
    );
    // Reward claimed: a claim code redeemed (a direct reward is told by "exchange finished").
    if (posted.created && row.rewardMode === 'claim') {
      await this.deps.notifications?.emit(tx, {
        to: { userId },
        event: 'reward.claimed',
        key: `reward.claimed:${row.id}`,
        title: 'Reward claimed',
        body: `${formatCredits(cents)} credits from your exchange of ${row.amountFrom} ${row.fromCurrency.toUpperCase()} were added to your balance.`,
        link: exchangeLink(row.id),
      });
    }
    return posted.created;
  }

  /** Unfinished exchanges, least recently checked first, that the poller should ask about. */
  async dueForPolling(limit: number, minAgeSeconds: number, db: DbOrTx = this.deps.db): Promise<ExchangeRow[]> {
    return db
      .select()
      .from(exchanges)
      .where(
        and(
          inArray(exchanges.status, UNFINISHED_STATUSES),
          gt(exchanges.createdAt, sql`now() - make_interval(days => ${POLL_WINDOW_DAYS})`),
          or(isNull(exchanges.lastCheckedAt), lt(exchanges.lastCheckedAt, sql`now() - make_interval(secs => ${minAgeSeconds})`)),
        ),
      )
      .orderBy(sql`${exchanges.lastCheckedAt} asc nulls first`)
      .limit(limit);
  }

  /** One polling pass (the real API has no webhooks): ask about each unfinished exchange. */
  async pollUnfinished(options: { limit?: number; minAgeSeconds?: number } = {}): Promise<{ checked: number; changed: number }> {
    const due = await this.dueForPolling(options.limit ?? 100, options.minAgeSeconds ?? 30);
    let changed = 0;
    for (const row of due) {
      const after = await this.refreshFromProvider(row, 'poll');
      if (after && after.status !== row.status) changed++;
    }
    return { checked: due.length, changed };
  }
}

/**
 * Signing in with a guestId moves the guest's exchanges to the account. Claims that cannot be redeemed
 * yet (the exchange has not finished) become the account's own: they are credited directly when the
 * exchange finishes, since the browser clears claims it could not redeem at sign-in (docs/product.md#guest-claims).
 * Finished, unclaimed ones stay claims for the browser to redeem.
 */
export async function moveGuestExchangesToUser(tx: Tx, guestId: string, userId: string): Promise<void> {
  await tx
    .update(exchanges)
    .set({
      userId,
      rewardMode: sql`CASE WHEN ${exchanges.rewardMode} = 'claim' AND ${exchanges.rewardCreditedAt} IS NULL
        AND ${exchanges.status} NOT IN ('finished', 'failed', 'refunded', 'expired') THEN 'direct' ELSE ${exchanges.rewardMode} END`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(exchanges.guestId, guestId), isNull(exchanges.userId)));
}
