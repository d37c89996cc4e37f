import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { SANDBOX_EXCHANGE_STATUSES } from '#shared/schemas/sandbox.js';
import type { AppContext } from '#server/context.js';
import { nudgeExchangeSync } from '#server/modules/exchange/exchange.module.js';
import { exchanges } from '#server/modules/exchange/exchange.tables.js';
import { sandboxSwapExchanges } from './swap-sandbox.tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SandboxCurrency {
  ticker: string;
  name: string;
  network: string;
  /** Fixed sandbox price in USD, so tests can predict every amount. */
  usd: number;
  hasExternalId?: boolean;
  isStable?: boolean;
}

/**
 * What the sandbox provider trades. `xmr` is listed on purpose: the app offers only currencies whose
 * payout addresses it can check, as it would with the real provider's long list.
 */
export const SANDBOX_SWAP_CURRENCIES: SandboxCurrency[] = [
  { ticker: 'btc', name: 'Bitcoin', network: 'btc', usd: 65_000 },
  { ticker: 'eth', name: 'Ethereum', network: 'eth', usd: 3_200 },
  { ticker: 'ltc', name: 'Litecoin', network: 'ltc', usd: 80 },
  { ticker: 'usdterc20', name: 'Tether (ERC-20)', network: 'eth', usd: 1, isStable: true },
  { ticker: 'usdttrc20', name: 'Tether (TRC-20)', network: 'trx', usd: 1, isStable: true },
  { ticker: 'xrp', name: 'Ripple', network: 'xrp', usd: 0.5, hasExternalId: true },
  { ticker: 'xlm', name: 'Stellar', network: 'xlm', usd: 0.1, hasExternalId: true },
  { ticker: 'doge', name: 'Dogecoin', network: 'doge', usd: 0.15 },
  { ticker: 'sol', name: 'Solana', network: 'sol', usd: 150 },
  { ticker: 'xmr', name: 'Monero', network: 'xmr', usd: 160 },
];
const CURRENCIES = new Map(SANDBOX_SWAP_CURRENCIES.map((c) => [c.ticker, c]));
/** The smallest exchange, in USD, for every pair. */
export const SANDBOX_SWAP_MIN_USD = 10;
/** The largest exchange, in USD, for every pair (2 BTC at the sandbox's price). */
export const SANDBOX_SWAP_MAX_USD = 130_000;
/** A fixed rate costs a margin over the floating one, as at the real provider. */
export const SANDBOX_FIXED_RATE_FACTOR = 0.99;

const round8 = (n: number) => Number(n.toFixed(8));
const ceil8 = (n: number) => Math.ceil(n * 1e8 - 1e-6) / 1e8;

function rate(from: SandboxCurrency, to: SandboxCurrency): number {
  return from.usd / to.usd;
}

function minAmount(from: SandboxCurrency): number {
  return ceil8(SANDBOX_SWAP_MIN_USD / from.usd);
}

function maxAmount(from: SandboxCurrency): number {
  return Math.floor((SANDBOX_SWAP_MAX_USD / from.usd) * 1e8 + 1e-6) / 1e8;
}

function rangeMessage(from: SandboxCurrency, amount: number): string | null {
  if (amount < minAmount(from)) return `Amount is less than minimal: ${minAmount(from)} ${from.ticker.toUpperCase()}`;
  if (amount > maxAmount(from)) return `Amount is more than maximal: ${maxAmount(from)} ${from.ticker.toUpperCase()}`;
  return null;
}

interface RateQuote {
  from: string;
  to: string;
  rate: number;
  /** Epoch milliseconds. */
  validUntil: number;
}

/**
 * A fixed-rate quote id: the quote itself, signed with the sandbox key. Every instance can check it
 * without shared state, a forged or altered one is unknown, and it expires like the provider's.
 */
function signRate(key: string, quote: RateQuote): string {
  const body = Buffer.from(JSON.stringify(quote)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

function readRate(key: string, rateId: string): RateQuote | null {
  const [body, mac, ...rest] = rateId.split('.');
  if (!body || !mac || rest.length > 0) return null;
  const expected = Buffer.from(createHmac('sha256', key).update(body).digest('base64url'));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const quote = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as RateQuote;
    return typeof quote.rate === 'number' && typeof quote.validUntil === 'number' ? quote : null;
  } catch {
    return null;
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Characters of `alphabet` picked by the bytes of a hash of `seed`: the same exchange, the same address. */
function derive(seed: string, alphabet: string, length: number): string {
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHash('sha256').update(`${seed}:${round}`).digest()) {
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A deposit address in the currency's format, derived from the exchange id (deterministic, never funded). */
function depositAddress(currency: SandboxCurrency, exchangeId: string): string {
  const seed = `${currency.ticker}:${exchangeId}`;
  switch (currency.network) {
    case 'btc':
      return `bc1q${derive(seed, BECH32, 38)}`;
    case 'ltc':
      return `ltc1q${derive(seed, BECH32, 38)}`;
    case 'eth':
      return `0x${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`;
    case 'trx':
      return `T${derive(seed, BASE58, 33)}`;
    case 'xrp':
      return `r${derive(seed, BASE58, 33)}`;
    case 'xlm':
      return `G${derive(seed, BASE32, 55)}`;
    case 'doge':
      return `D${derive(seed, BASE58, 33)}`;
    case 'xmr':
      return `4${derive(seed, BASE58, 94)}`;
    default:
      return derive(seed, BASE58, 44);
  }
}

/** The memo the deposit needs, for currencies that use one (derived from the id, digits only). */
function depositExtraId(currency: SandboxCurrency, exchangeId: string): string | null {
  if (!currency.hasExternalId) return null;
  const n = createHash('sha256').update(`memo:${exchangeId}`).digest().readUInt32BE(0);
  return String(100_000_000 + (n % 900_000_000));
}

type ExchangeData = Record<string, unknown> & {
  id: string;
  status: string;
  fromCurrency: string;
  toCurrency: string;
  expectedSendAmount: number;
  expectedReceiveAmount: number;
};

/** ChangeNOW answers errors as `{error, message}` with a 4xx status. */
function providerError(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.status(status).send({ error, message });
}

function parsePair(pair: string): [SandboxCurrency, SandboxCurrency] | null {
  const [fromTicker, toTicker, ...rest] = pair.toLowerCase().split('_');
  if (rest.length > 0 || !fromTicker || !toTicker || fromTicker === toTicker) return null;
  const from = CURRENCIES.get(fromTicker);
  const to = CURRENCIES.get(toTicker);
  return from && to ? [from, to] : null;
}

const createSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  address: z.string().min(1).max(200),
  amount: z.coerce.number().positive(),
  extraId: z.string().max(100).optional().nullable(),
  refundAddress: z.string().max(200).optional().nullable(),
  refundExtraId: z.string().max(100).optional().nullable(),
  userId: z.string().optional(),
  contactEmail: z.string().optional(),
  rateId: z.string().max(2000).optional(),
});

/** The statuses the control endpoint accepts: the provider's own (docs/providers.md: waiting ... expired). */
const CONTROL_STATUSES = SANDBOX_EXCHANGE_STATUSES as [string, ...string[]];
const controlSchema = z.object({
  status: z.enum(CONTROL_STATUSES),
  /** What the customer actually sent (defaults to the expected amount once a deposit is seen). */
  amountSend: z.coerce.number().positive().optional(),
  /** Test aid: false changes the exchange without nudging the app, leaving it to the status poller. */
  sync: z.boolean().optional(),
});

/**
 * A local imitation of a ChangeNOW-style swap API, v1 (docs/providers.md), mounted under /sandbox/swap/v1
 * when no real key is configured, plus the control endpoint of docs/product.md#runtime that moves an
 * exchange as the provider would. Rates and deposit addresses are deterministic.
 */
export function registerSwapSandbox(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  const { apiKey, sandboxRateTtlSeconds } = ctx.config.swap;
  const hide = { schema: { hide: true } };

  async function load(id: string) {
    if (!/^[0-9a-f]{14,20}$/.test(id)) return null;
    const [row] = await db.select().from(sandboxSwapExchanges).where(eq(sandboxSwapExchanges.id, id)).limit(1);
    return row ?? null;
  }

  /**
   * The control endpoint takes the provider's exchange id or Olympus's own (the id the exchange page
   * shows), so a newcomer can drive an exchange from what they see (decision 0231).
   */
  async function loadForControl(id: string) {
    if (!UUID.test(id)) return load(id);
    const [own] = await db
      .select({ providerExchangeId: exchanges.providerExchangeId })
      .from(exchanges)
      .where(and(eq(exchanges.id, id.toLowerCase()), eq(exchanges.provider, 'changenow')))
      .limit(1);
    return own ? load(own.providerExchangeId) : null;
  }

  app.register(
    async (v1) => {
      v1.get('/currencies', hide, async () =>
        SANDBOX_SWAP_CURRENCIES.map((c) => ({
          ticker: c.ticker,
          name: c.name,
          image: `https://changenow.io/images/coins/${c.ticker}.svg`,
          hasExternalId: Boolean(c.hasExternalId),
          isFiat: false,
          featured: ['btc', 'eth', 'usdterc20'].includes(c.ticker),
          isStable: Boolean(c.isStable),
          supportsFixedRate: true,
        })),
      );

      v1.get('/min-amount/:pair', hide, async (request, reply) => {
        const pair = parsePair((request.params as { pair: string }).pair);
        if (!pair) return providerError(reply, 400, 'pair_is_inactive', 'Pair is inactive');
        return { minAmount: minAmount(pair[0]) };
      });

      v1.get('/exchange-amount/:amount/:pair', hide, async (request, reply) => {
        const params = request.params as { amount: string; pair: string };
        const pair = parsePair(params.pair);
        if (!pair) return providerError(reply, 400, 'pair_is_inactive', 'Pair is inactive');
        const amount = Number(params.amount);
        if (!(amount > 0) || !Number.isFinite(amount)) return providerError(reply, 400, 'not_valid_params', 'Amount is not valid');
        return {
          estimatedAmount: round8(amount * rate(pair[0], pair[1])),
          transactionSpeedForecast: '10-60',
          warningMessage: rangeMessage(pair[0], amount),
        };
      });

      const range = async (request: { params: unknown }, reply: FastifyReply) => {
        const pair = parsePair((request.params as { pair: string }).pair);
        if (!pair) return providerError(reply, 400, 'pair_is_inactive', 'Pair is inactive');
        return { minAmount: minAmount(pair[0]), maxAmount: maxAmount(pair[0]) };
      };
      v1.get('/exchange-range/:pair', hide, range);
      v1.get('/exchange-range/fixed-rate/:pair', hide, range);

      v1.get('/exchange-amount/fixed-rate/:amount/:pair', hide, async (request, reply) => {
        const params = request.params as { amount: string; pair: string };
        const pair = parsePair(params.pair);
        if (!pair) return providerError(reply, 400, 'pair_is_inactive', 'Pair is inactive');
        const amount = Number(params.amount);
        if (!(amount > 0) || !Number.isFinite(amount)) return providerError(reply, 400, 'not_valid_params', 'Amount is not valid');
        const [from, to] = pair;
        const fixedRate = rate(from, to) * SANDBOX_FIXED_RATE_FACTOR;
        const validUntil = Date.now() + sandboxRateTtlSeconds * 1000;
        return {
          estimatedAmount: round8(amount * fixedRate),
          transactionSpeedForecast: '10-60',
          warningMessage: rangeMessage(from, amount),
          rateId: signRate(apiKey, { from: from.ticker, to: to.ticker, rate: fixedRate, validUntil }),
          validUntil: new Date(validUntil).toISOString(),
        };
      });

      const create = async (request: { params: unknown; body: unknown }, reply: FastifyReply, fixed: boolean) => {
        if ((request.params as { key: string }).key !== apiKey) return providerError(reply, 401, 'not_valid_api_key', 'Invalid api key');
        const parsed = createSchema.safeParse(request.body ?? {});
        if (!parsed.success)
          return providerError(
            reply,
            400,
            'not_valid_params',
            parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          );
        const input = parsed.data;
        const pair = parsePair(`${input.from}_${input.to}`);
        if (!pair) return providerError(reply, 400, 'pair_is_inactive', 'Pair is inactive');
        const [from, to] = pair;
        const outOfRange = rangeMessage(from, input.amount);
        if (outOfRange) return providerError(reply, 400, 'out_of_range', outOfRange);
        let exchangeRate = rate(from, to);
        let validUntil: string | null = null;
        if (fixed) {
          const quote = input.rateId ? readRate(apiKey, input.rateId) : null;
          if (!quote || quote.from !== from.ticker || quote.to !== to.ticker)
            return providerError(reply, 400, 'not_valid_rate_id', 'Rate id is not valid');
          if (quote.validUntil <= Date.now()) return providerError(reply, 400, 'rate_id_expired', 'Rate id has expired');
          exchangeRate = quote.rate;
          validUntil = new Date(quote.validUntil).toISOString();
        }
        const id = randomBytes(7).toString('hex');
        const now = new Date().toISOString();
        const data: ExchangeData = {
          id,
          status: 'waiting',
          payinAddress: depositAddress(from, id),
          payinExtraId: depositExtraId(from, id),
          payoutAddress: input.address,
          payoutExtraId: input.extraId ?? null,
          refundAddress: input.refundAddress ?? null,
          refundExtraId: input.refundExtraId ?? null,
          fromCurrency: from.ticker,
          toCurrency: to.ticker,
          expectedSendAmount: round8(input.amount),
          expectedReceiveAmount: round8(input.amount * exchangeRate),
          amountSend: null,
          amountReceive: null,
          payinHash: null,
          payoutHash: null,
          depositReceivedAt: null,
          isPartner: false,
          // A fixed-rate exchange must be paid before its quote expires, or it expires.
          validUntil,
          createdAt: now,
          updatedAt: now,
        };
        await db.insert(sandboxSwapExchanges).values({ id, data });
        return {
          id,
          payinAddress: data.payinAddress,
          payoutAddress: data.payoutAddress,
          payoutExtraId: data.payoutExtraId,
          payinExtraId: data.payinExtraId,
          refundAddress: data.refundAddress,
          refundExtraId: data.refundExtraId,
          fromCurrency: from.ticker,
          toCurrency: to.ticker,
          amount: data.expectedReceiveAmount,
          ...(fixed ? { validUntil } : {}),
        };
      };
      v1.post('/transactions/fixed-rate/:key', hide, (request, reply) => create(request, reply, true));
      v1.post('/transactions/:key', hide, (request, reply) => create(request, reply, false));

      v1.get('/transactions/:id/:key', hide, async (request, reply) => {
        const params = request.params as { id: string; key: string };
        if (params.key !== apiKey) return providerError(reply, 401, 'not_valid_api_key', 'Invalid api key');
        const row = await load(params.id);
        if (!row) return providerError(reply, 404, 'not_found', 'Transaction not found');
        const data = row.data as ExchangeData;
        // An unpaid fixed-rate exchange expires with its quote, as at the provider.
        if (data.status === 'waiting' && typeof data.validUntil === 'string' && Date.parse(data.validUntil) <= Date.now()) {
          return { ...data, status: 'expired' };
        }
        return data;
      });
    },
    { prefix: '/swap/v1' },
  );

  // Control endpoint (docs/product.md#runtime): move the exchange, then nudge the app to sync it now.
  app.post('/swap/exchanges/:id/status', hide, async (request, reply) => {
    const parsed = controlSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply.status(400).send({ error: `status must be one of ${CONTROL_STATUSES.join(', ')}`, code: 'BAD_REQUEST' });
    }
    const row = await loadForControl((request.params as { id: string }).id);
    if (!row) return reply.status(404).send({ error: 'Sandbox exchange not found', code: 'NOT_FOUND' });
    const { status, amountSend, sync } = parsed.data;
    const data = { ...(row.data as ExchangeData) };
    const from = CURRENCIES.get(data.fromCurrency)!;
    const to = CURRENCIES.get(data.toCurrency)!;
    const depositSeen = !['waiting', 'expired'].includes(status);
    data.status = status;
    if (depositSeen) {
      const sent = amountSend ?? (typeof data.amountSend === 'number' ? data.amountSend : data.expectedSendAmount);
      data.amountSend = round8(sent);
      data.depositReceivedAt ??= new Date().toISOString();
      data.payinHash ??= randomBytes(32).toString('hex');
      if (status === 'finished') {
        data.amountReceive = round8(sent * rate(from, to));
        data.payoutHash ??= randomBytes(32).toString('hex');
      }
    }
    data.updatedAt = new Date().toISOString();
    await db
      .update(sandboxSwapExchanges)
      .set({ data, updatedAt: sql`now()` })
      .where(eq(sandboxSwapExchanges.id, row.id));

    let synced: string | null = null;
    if (sync !== false) synced = await nudgeExchangeSync(ctx, row.id);
    return { exchange: data, synced };
  });
}
