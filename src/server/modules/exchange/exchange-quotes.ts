import type { EstimateResponse, ExchangeCurrency, ExchangeRangeResponse, RateType } from '#shared/schemas/exchange.js';
import { AppError, unprocessable } from '#server/errors.js';
import type { ExchangeServiceDeps } from './exchange-deps.js';
import { decimal } from './exchange-rows.js';
import { supportedCurrency, SUPPORTED_CURRENCIES, USD_REFERENCE_TICKER } from './payout-address.js';
import { rewardCentsFor } from './rewards.js';
import { SwapProviderError, type SwapCurrency } from './swap.client.js';

const CURRENCY_CACHE_MS = 10 * 60 * 1000;

/** The provider's currencies, pair limits and estimates, and how its refusals become answers (creation uses them too). */
export class ExchangeQuotes {
  private currencyCache: { at: number; list: ExchangeCurrency[] } | null = null;

  constructor(private readonly deps: ExchangeServiceDeps) {}

  providerDown(err: unknown): AppError {
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

  async assertPair(from: string, to: string): Promise<void> {
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
  async providerRange(from: string, to: string, rateType: RateType): Promise<{ min: number; max: number | null }> {
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
  assertInRange(from: string, amount: number, min: number, max: number | null): void {
    const ticker = from.toUpperCase();
    const limits =
      max === null
        ? `The minimum for this pair is ${min} ${ticker}`
        : `The amount must be between ${min} ${ticker} and ${max} ${ticker} for this pair`;
    const details = { fields: { amount: limits }, minAmount: String(min), maxAmount: max === null ? null : String(max), currency: ticker };
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
  async quoteRefused(code: 'FIXED_RATE_EXPIRED' | 'FIXED_RATE_UNKNOWN', from: string, to: string, amount: number): Promise<AppError> {
    const quote = await this.estimate(from, to, amount, 'fixed');
    const time = quote.validUntil ? quote.validUntil.slice(11, 19) : '';
    const reason = code === 'FIXED_RATE_EXPIRED' ? 'That fixed rate has expired' : 'That fixed rate is not known';
    const message = `${reason}. New quote: ${quote.estimatedAmount} ${to.toUpperCase()}, fixed rate valid until ${time} UTC. Check it and create the exchange again.`;
    return unprocessable(message, code, { fields: { rateId: message }, quote });
  }

  /** Provider refusals become answers a person can act on; anything else means the provider is down. */
  mapProviderError(err: unknown): AppError {
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
}
