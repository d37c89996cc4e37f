import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { asc, desc, eq, gte, lte, and, count, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SANDBOX_PAYMENT_STATUSES } from '#shared/schemas/sandbox.js';
import type { AppContext } from '#server/context.js';
import { signIpnPayload } from '#server/modules/payments/ipn-signature.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { sandboxNowpaymentsPayments } from './payments-sandbox.tables.js';

interface SandboxCoin {
  code: string;
  name: string;
  network: string;
  /** Sandbox price in USD. */
  usd: number;
  extraId?: 'tag' | 'memo';
}

/** The coins the sandbox merchant accepts, at fixed prices so tests can predict amounts. */
export const SANDBOX_COINS: SandboxCoin[] = [
  { code: 'btc', name: 'Bitcoin', network: 'btc', usd: 65_000 },
  { code: 'eth', name: 'Ethereum', network: 'eth', usd: 3_200 },
  { code: 'ltc', name: 'Litecoin', network: 'ltc', usd: 80 },
  { code: 'usdttrc20', name: 'Tether USD (TRC-20)', network: 'trx', usd: 1 },
  { code: 'usdterc20', name: 'Tether USD (ERC-20)', network: 'eth', usd: 1 },
  { code: 'usdc', name: 'USD Coin', network: 'eth', usd: 1 },
  { code: 'xrp', name: 'Ripple', network: 'xrp', usd: 0.5, extraId: 'tag' },
  { code: 'xlm', name: 'Stellar', network: 'xlm', usd: 0.1, extraId: 'memo' },
  { code: 'doge', name: 'Dogecoin', network: 'doge', usd: 0.15 },
  { code: 'trx', name: 'Tron', network: 'trx', usd: 0.12 },
  { code: 'sol', name: 'Solana', network: 'sol', usd: 150 },
  { code: 'bnbbsc', name: 'BNB (BSC)', network: 'bsc', usd: 580 },
];
const COINS = new Map(SANDBOX_COINS.map((c) => [c.code, c]));
/** Minimum payment, in USD, for every coin. */
const SANDBOX_MIN_USD = 1;

export const SANDBOX_STATUSES = SANDBOX_PAYMENT_STATUSES;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

function sandboxAddress(coin: SandboxCoin): string {
  switch (coin.network) {
    case 'btc':
      return `bc1q${pick(BECH32, 38)}`;
    case 'ltc':
      return `ltc1q${pick(BECH32, 38)}`;
    case 'eth':
    case 'bsc':
      return `0x${randomBytes(20).toString('hex')}`;
    case 'trx':
      return `T${pick(BASE58, 33)}`;
    case 'xrp':
      return `r${pick(BASE58, 33)}`;
    case 'xlm':
      return `G${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 55)}`;
    case 'doge':
      return `D${pick(BASE58, 33)}`;
    default:
      return pick(BASE58, 44);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const round = (n: number, digits: number) => Number(n.toFixed(digits));

type PaymentData = Record<string, unknown> & {
  payment_id: number;
  payment_status: string;
  price_amount: number;
  pay_amount: number;
  pay_currency: string;
};

function providerError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ status: false, statusCode: status, code, message });
}

const createPaymentSchema = z.object({
  price_amount: z.coerce.number().positive(),
  price_currency: z.string().min(1),
  pay_currency: z.string().min(1),
  order_id: z.string().max(200).optional(),
  order_description: z.string().max(500).optional(),
  ipn_callback_url: z.url().optional(),
  is_fixed_rate: z.boolean().optional(),
  is_fee_paid_by_user: z.boolean().optional(),
});

const statusControlSchema = z.object({
  status: z.enum(SANDBOX_STATUSES),
  actually_paid: z.coerce.number().min(0).optional(),
  /** Test aid: false changes the payment without sending the IPN (an IPN lost on the way). */
  ipn: z.boolean().optional(),
});

const redepositSchema = z.object({
  /** What arrived this time, in the payment's coin. */
  actually_paid: z.coerce.number().positive(),
  status: z.enum(SANDBOX_STATUSES).optional(),
  /** Test aid: false creates the re-deposit without sending its IPN (an IPN lost on the way). */
  ipn: z.boolean().optional(),
});

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(10),
  page: z.coerce.number().int().min(0).default(0),
  sortBy: z.enum(['created_at', 'updated_at', 'payment_id']).default('created_at'),
  orderBy: z.enum(['asc', 'desc']).default('asc'),
  dateFrom: z.string().optional(),
  dateTo: z.string().optional(),
});

/** The sandbox's JWT: an expiry and its HMAC under the API key, so every instance accepts it. */
const JWT_TTL_MS = 5 * 60 * 1000;
function sandboxJwt(apiKey: string, expiresAt: number): string {
  return `${expiresAt}.${createHmac('sha256', apiKey).update(`sandbox-jwt:${expiresAt}`).digest('hex')}`;
}
function jwtValid(apiKey: string, header: string | undefined): boolean {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const expiresAt = Number(token.split('.')[0]);
  if (!Number.isSafeInteger(expiresAt) || expiresAt < Date.now()) return false;
  const expected = Buffer.from(sandboxJwt(apiKey, expiresAt));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A day (YYYY-MM-DD) or a time, as the list's date filters take them; null when unreadable. */
function listDate(value: string | undefined, endOfDay: boolean): Date | null {
  if (!value) return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return null;
  return day && endOfDay ? new Date(date.getTime() + 86_400_000 - 1) : date;
}

/**
 * A local imitation of the documented NOWPayments API (docs/providers.md), mounted under
 * /sandbox/nowpayments/v1 when no real key is configured, plus the control endpoint of
 * docs/product.md#runtime that moves a payment and sends the signed IPN exactly as NOWPayments does.
 */
export function registerNowPaymentsSandbox(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  const { apiKey, ipnSecret } = ctx.config.nowpayments;
  const hide = { schema: { hide: true } };

  const requireKey = async (request: FastifyRequest, reply: FastifyReply) => {
    // `POST /auth` takes the dashboard login instead of the API key.
    if (request.url.split('?')[0]!.endsWith('/v1/auth')) return;
    if (request.headers['x-api-key'] !== apiKey) {
      return providerError(reply, 403, 'INVALID_API_KEY', 'Invalid api key');
    }
  };

  async function load(paymentId: string) {
    if (!/^\d{1,20}$/.test(paymentId)) return null;
    const [row] = await db.select().from(sandboxNowpaymentsPayments).where(eq(sandboxNowpaymentsPayments.paymentId, paymentId)).limit(1);
    return row ?? null;
  }

  /**
   * The control endpoints take the provider's payment id or Olympus's own (the id pages and the API
   * show), so a newcomer can drive a payment from what they see (decision 0231).
   */
  async function loadForControl(id: string) {
    if (!UUID.test(id)) return load(id);
    const [own] = await db
      .select({ providerPaymentId: payments.providerPaymentId })
      .from(payments)
      .where(and(eq(payments.id, id.toLowerCase()), eq(payments.provider, 'nowpayments')))
      .limit(1);
    return own?.providerPaymentId ? load(own.providerPaymentId) : null;
  }

  app.register(
    async (v1) => {
      v1.addHook('onRequest', requireKey);

      v1.get('/status', hide, async () => ({ message: 'OK' }));

      v1.get('/currencies', hide, async () => ({ currencies: SANDBOX_COINS.map((c) => c.code) }));

      v1.get('/full-currencies', hide, async () => ({
        currencies: SANDBOX_COINS.map((c, i) => ({
          id: i + 1,
          code: c.code.toUpperCase(),
          name: c.name,
          enable: true,
          wallet_regex: null,
          priority: i,
          extra_id_exists: Boolean(c.extraId),
          extra_id_regex: c.extraId ? '^[0-9]{1,10}$' : null,
          logo_url: `/images/coins/${c.code}.svg`,
          track: true,
          cg_id: c.code,
          is_maxlimit: false,
          network: c.network,
          smart_contract: null,
          network_precision: null,
        })),
      }));

      v1.get('/merchant/coins', hide, async () => ({ selectedCurrencies: SANDBOX_COINS.map((c) => c.code.toUpperCase()) }));

      v1.get('/min-amount', hide, async (request, reply) => {
        const q = request.query as Record<string, string | undefined>;
        const coin = COINS.get((q.currency_from ?? '').toLowerCase());
        if (!coin) return providerError(reply, 400, 'INVALID_REQUEST_PARAMS', 'currency_from is invalid');
        return {
          currency_from: coin.code,
          currency_to: (q.currency_to ?? coin.code).toLowerCase(),
          min_amount: round(SANDBOX_MIN_USD / coin.usd, 8),
          ...(q.fiat_equivalent ? { fiat_equivalent: SANDBOX_MIN_USD } : {}),
        };
      });

      v1.get('/estimate', hide, async (request, reply) => {
        const q = request.query as Record<string, string | undefined>;
        const amount = Number(q.amount);
        const from = (q.currency_from ?? '').toLowerCase();
        const to = COINS.get((q.currency_to ?? '').toLowerCase());
        const fromUsd = from === 'usd' ? 1 : COINS.get(from)?.usd;
        if (!(amount > 0) || !to || !fromUsd) return providerError(reply, 400, 'INVALID_REQUEST_PARAMS', 'amount or currency is invalid');
        return { currency_from: from, amount_from: amount, currency_to: to.code, estimated_amount: round((amount * fromUsd) / to.usd, 8) };
      });

      v1.post('/payment', hide, async (request, reply) => {
        const parsed = createPaymentSchema.safeParse(request.body ?? {});
        if (!parsed.success) {
          return providerError(
            reply,
            400,
            'INVALID_REQUEST_PARAMS',
            parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          );
        }
        const input = parsed.data;
        const coin = COINS.get(input.pay_currency.toLowerCase());
        if (!coin) return providerError(reply, 400, 'INVALID_REQUEST_PARAMS', 'pay_currency is invalid');
        if (input.price_currency.toLowerCase() !== 'usd') {
          return providerError(reply, 400, 'INVALID_REQUEST_PARAMS', 'price_currency is invalid');
        }
        if (input.price_amount < SANDBOX_MIN_USD) {
          return providerError(reply, 400, 'AMOUNT_MINIMAL_ERROR', 'amountTo is too small');
        }
        const now = new Date();
        const paymentId = randomInt(4_000_000_000, 9_999_999_999);
        const data: PaymentData = {
          payment_id: paymentId,
          payment_status: 'waiting',
          pay_address: sandboxAddress(coin),
          price_amount: input.price_amount,
          price_currency: input.price_currency.toLowerCase(),
          pay_amount: round(input.price_amount / coin.usd, 8),
          amount_received: round(input.price_amount / coin.usd, 8),
          pay_currency: coin.code,
          order_id: input.order_id ?? null,
          order_description: input.order_description ?? null,
          payin_extra_id: coin.extraId ? String(randomInt(100_000_000, 999_999_999)) : null,
          ipn_callback_url: input.ipn_callback_url ?? null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          purchase_id: String(randomInt(1_000_000_000, 9_999_999_999)),
          smart_contract: null,
          network: coin.network,
          network_precision: null,
          time_limit: null,
          burning_percent: null,
          expiration_estimate_date: new Date(now.getTime() + 7 * 24 * 3600 * 1000).toISOString(),
          is_fixed_rate: input.is_fixed_rate ?? false,
          is_fee_paid_by_user: input.is_fee_paid_by_user ?? false,
          type: 'crypto2crypto',
          product: 'api',
          origin_type: null,
        };
        await db.insert(sandboxNowpaymentsPayments).values({
          paymentId: String(paymentId),
          ipnCallbackUrl: input.ipn_callback_url ?? null,
          data,
        });
        return reply.status(201).send(data);
      });

      v1.post('/auth', hide, async (request, reply) => {
        const body = (request.body ?? {}) as { email?: unknown; password?: unknown };
        const { login } = ctx.config.nowpayments;
        if (!login || body.email !== login.email || body.password !== login.password) {
          return providerError(reply, 401, 'INVALID_CREDENTIALS', 'Invalid email or password');
        }
        return { token: sandboxJwt(apiKey, Date.now() + JWT_TTL_MS) };
      });

      // Get list of payments: needs the JWT of POST /auth as well as the API key.
      v1.get('/payment/', hide, async (request, reply) => {
        if (!jwtValid(apiKey, request.headers.authorization))
          return providerError(reply, 401, 'AUTH_REQUIRED', 'Authorization header is empty (Bearer JWTtoken is required)');
        const parsed = listQuerySchema.safeParse(request.query ?? {});
        if (!parsed.success)
          return providerError(
            reply,
            400,
            'INVALID_REQUEST_PARAMS',
            parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          );
        const q = parsed.data;
        const from = listDate(q.dateFrom, false);
        const to = listDate(q.dateTo, true);
        const where = and(
          from ? gte(sandboxNowpaymentsPayments.createdAt, from) : undefined,
          to ? lte(sandboxNowpaymentsPayments.createdAt, to) : undefined,
        );
        const column =
          q.sortBy === 'updated_at'
            ? sandboxNowpaymentsPayments.updatedAt
            : q.sortBy === 'payment_id'
              ? sandboxNowpaymentsPayments.paymentId
              : sandboxNowpaymentsPayments.createdAt;
        const rows = await db
          .select()
          .from(sandboxNowpaymentsPayments)
          .where(where)
          .orderBy(q.orderBy === 'desc' ? desc(column) : asc(column), asc(sandboxNowpaymentsPayments.paymentId))
          .limit(q.limit)
          .offset(q.page * q.limit);
        const [total] = await db.select({ n: count() }).from(sandboxNowpaymentsPayments).where(where);
        const n = total?.n ?? 0;
        return {
          data: rows.map((r) => paymentView(r.data as PaymentData)),
          limit: q.limit,
          page: q.page,
          pagesCount: Math.ceil(n / q.limit),
          total: n,
        };
      });

      v1.get('/payment/:paymentId', hide, async (request, reply) => {
        const row = await load((request.params as { paymentId: string }).paymentId);
        if (!row) return providerError(reply, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
        return paymentView(row.data as PaymentData);
      });
    },
    { prefix: '/nowpayments/v1' },
  );

  // Control endpoint (docs/product.md#runtime): move the payment, then send the IPN as NOWPayments does.
  app.post('/nowpayments/payments/:paymentId/status', hide, async (request, reply) => {
    const parsed = statusControlSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return reply.status(400).send({ error: `status must be one of ${SANDBOX_STATUSES.join(', ')}`, code: 'BAD_REQUEST' });
    }
    const row = await loadForControl((request.params as { paymentId: string }).paymentId);
    if (!row) return reply.status(404).send({ error: 'Sandbox payment not found', code: 'NOT_FOUND' });
    const { status, actually_paid: givenPaid, ipn } = parsed.data;
    const data = { ...(row.data as PaymentData) };
    const payAmount = data.pay_amount;
    let paid: number;
    if (givenPaid !== undefined) paid = givenPaid;
    else if (status === 'partially_paid') paid = round(payAmount / 2, 8);
    else if (status === 'waiting' || status === 'expired') paid = 0;
    else if (status === 'failed' || status === 'refunded') paid = Number(data.actually_paid ?? 0);
    else paid = payAmount;
    data.payment_status = status;
    data.actually_paid = paid;
    data.actually_paid_at_fiat = round((data.price_amount * paid) / payAmount, 2);
    data.outcome_amount = round(paid * 0.995, 8);
    data.outcome_currency = data.pay_currency;
    data.updated_at = new Date().toISOString();
    if (status !== 'waiting' && status !== 'expired' && !data.payin_hash) data.payin_hash = randomBytes(32).toString('hex');
    if (status === 'finished') data.payout_hash = randomBytes(32).toString('hex');
    await db
      .update(sandboxNowpaymentsPayments)
      .set({ data, updatedAt: sql`now()` })
      .where(eq(sandboxNowpaymentsPayments.paymentId, row.paymentId));

    const delivery = ipn !== false ? await sendIpn(row.ipnCallbackUrl, data) : null;
    return { payment: paymentView(data), ipn: delivery };
  });

  /** Posts the signed IPN as NOWPayments does; answers the delivery result (null: nowhere to send). */
  async function sendIpn(callbackUrl: string | null, data: PaymentData) {
    if (!callbackUrl || !ipnSecret) return null;
    const body = ipnBody(data);
    try {
      const res = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': signIpnPayload(body, ipnSecret) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return { delivered: res.ok, statusCode: res.status };
    } catch (err) {
      return { delivered: false, statusCode: null, error: (err as Error).message };
    }
  }

  // Control endpoint: money sent again to a payment's address after it ended. NOWPayments reports it
  // as a new payment whose `parent_payment_id` is the first one (a re-deposit), worth what arrived.
  app.post('/nowpayments/payments/:paymentId/redeposit', hide, async (request, reply) => {
    const parsed = redepositSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.status(400).send({ error: 'actually_paid must be a positive number', code: 'BAD_REQUEST' });
    const parent = await loadForControl((request.params as { paymentId: string }).paymentId);
    if (!parent) return reply.status(404).send({ error: 'Sandbox payment not found', code: 'NOT_FOUND' });
    const p = parent.data as PaymentData;
    const coin = COINS.get(p.pay_currency)!;
    const { actually_paid: paid, status = 'finished', ipn } = parsed.data;
    const now = new Date();
    const paymentId = randomInt(4_000_000_000, 9_999_999_999);
    const fiat = round(paid * coin.usd, 2);
    const data: PaymentData = {
      ...p,
      payment_id: paymentId,
      parent_payment_id: p.payment_id,
      payment_status: status,
      price_amount: fiat,
      pay_amount: paid,
      amount_received: paid,
      actually_paid: status === 'waiting' || status === 'expired' ? 0 : paid,
      actually_paid_at_fiat: status === 'waiting' || status === 'expired' ? 0 : fiat,
      outcome_amount: round(paid * 0.995, 8),
      outcome_currency: p.pay_currency,
      payin_hash: randomBytes(32).toString('hex'),
      payout_hash: status === 'finished' ? randomBytes(32).toString('hex') : null,
      purchase_id: String(randomInt(1_000_000_000, 9_999_999_999)),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await db.insert(sandboxNowpaymentsPayments).values({ paymentId: String(paymentId), ipnCallbackUrl: parent.ipnCallbackUrl, data });
    const delivery = ipn !== false ? await sendIpn(parent.ipnCallbackUrl, data) : null;
    return { payment: paymentView(data), ipn: delivery };
  });
}

/** The payment as GET /payment/{id} shows it (no callback URL). */
function paymentView(data: PaymentData): Record<string, unknown> {
  const { ipn_callback_url: _url, ...rest } = data;
  return {
    actually_paid: 0,
    actually_paid_at_fiat: 0,
    outcome_amount: null,
    outcome_currency: null,
    parent_payment_id: null,
    payin_hash: null,
    payout_hash: null,
    ...rest,
  };
}

/** The IPN body NOWPayments posts: the payment's fields with its fee breakdown. */
export function ipnBody(data: PaymentData): Record<string, unknown> {
  const view = paymentView(data);
  return {
    payment_id: view.payment_id,
    parent_payment_id: view.parent_payment_id,
    invoice_id: null,
    payment_status: view.payment_status,
    pay_address: view.pay_address,
    payin_extra_id: view.payin_extra_id,
    price_amount: view.price_amount,
    price_currency: view.price_currency,
    pay_amount: view.pay_amount,
    actually_paid: view.actually_paid,
    actually_paid_at_fiat: view.actually_paid_at_fiat,
    pay_currency: view.pay_currency,
    order_id: view.order_id,
    order_description: view.order_description,
    purchase_id: view.purchase_id,
    outcome_amount: view.outcome_amount,
    outcome_currency: view.outcome_currency,
    payment_extra_ids: null,
    fee: { currency: view.pay_currency, depositFee: 0, withdrawalFee: 0, serviceFee: 0 },
    updated_at: view.updated_at,
  };
}
