import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

type Json = Record<string, unknown>;

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const XRP_ADDRESS = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
const SWAP = { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS };
/** Fixed-rate quotes of the sandbox expire this fast here, so a test can outlive one. */
const RATE_TTL_SECONDS = 3;
const SANDBOX_KEY = 'sandbox-swap-api-key';

/**
 * Runs `fn` as if `until` (an ISO time) had passed by 300 ms: the app and the sandbox provider run in
 * this process and read the time from Date, so faking Date alone moves their clock while timers and
 * sockets keep real time. No waiting for a quote to expire.
 */
async function after<T>(until: string, fn: () => Promise<T>): Promise<T> {
  const at = Date.parse(until) + 300;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.max(at, Date.now()));
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

/** What the sandbox provider holds for an exchange (what we passed it). */
async function atProvider(t: TestApp, providerExchangeId: string): Promise<Json> {
  const res = await call(t, 'GET', `/sandbox/swap/v1/transactions/${providerExchangeId}/${SANDBOX_KEY}`);
  expect(res.status).toBe(200);
  return res.json as Json;
}

async function fixedQuote(t: TestApp, amount = 0.01): Promise<Json & { rateId: string; validUntil: string }> {
  const res = await call(t, 'GET', `/api/exchange/estimate?from=btc&to=eth&amount=${amount}&rateType=fixed`);
  expect(res.status).toBe(200);
  return res.json as Json & { rateId: string; validUntil: string };
}

describe.each(enginesFor('logic'))('exchange refunds, fixed rates and limits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', SWAP_SANDBOX_RATE_TTL_SECONDS: String(RATE_TTL_SECONDS) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a pair's minimum and maximum from the provider, and documents the call", async () => {
    const res = await call(t, 'GET', '/api/exchange/range?from=btc&to=eth');
    expect(res.status).toBe(200);
    // The sandbox's limits: 10 USD and 130,000 USD at 65,000 USD per BTC.
    expect(res.json).toEqual({ from: 'btc', to: 'eth', rateType: 'floating', minAmount: '0.00015385', maxAmount: '2' });
    const fixed = await call(t, 'GET', '/api/exchange/range?from=eth&to=btc&rateType=fixed');
    expect(fixed.json).toMatchObject({ rateType: 'fixed', minAmount: '0.003125', maxAmount: '40.625' });
    expect((await call(t, 'GET', '/api/exchange/range?from=btc&to=btc')).status).toBe(422);
    expect((await call(t, 'GET', '/api/exchange/range?from=btc&to=eth&rateType=best')).status).toBe(400);
    const doc = (await call(t, 'GET', '/api/docs')).json as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/exchange/range');
  });

  it('says which rate an estimate is: floating without a quote, fixed with its rateId and expiry', async () => {
    const floating = await call(t, 'GET', '/api/exchange/estimate?from=btc&to=eth&amount=0.01');
    expect(floating.json).toMatchObject({
      rateType: 'floating',
      rateId: null,
      validUntil: null,
      estimatedAmount: '0.203125',
      maxAmount: '2',
    });
    const before = Date.now();
    const fixed = await fixedQuote(t);
    // The sandbox's fixed rate costs 1 % over the floating one.
    expect(fixed).toMatchObject({ rateType: 'fixed', estimatedAmount: '0.20109375', minAmount: '0.00015385', maxAmount: '2' });
    expect(fixed.rateId).toEqual(expect.any(String));
    const validFor = Date.parse(fixed.validUntil) - before;
    expect(validFor).toBeGreaterThan((RATE_TTL_SECONDS - 1) * 1000);
    expect(validFor).toBeLessThanOrEqual(RATE_TTL_SECONDS * 1000 + 1000);
  });

  it('refuses amounts outside the limits with both limits in the message, creating nothing', async () => {
    const user = await registerUser(t);
    const below = await call(t, 'POST', '/api/exchange/exchanges', { token: user.token, body: { ...SWAP, amount: 0.0001 } });
    expect(below.status).toBe(422);
    expect(below.json).toMatchObject({
      code: 'AMOUNT_BELOW_MINIMUM',
      error: 'The amount must be between 0.00015385 BTC and 2 BTC for this pair',
      details: {
        minAmount: '0.00015385',
        maxAmount: '2',
        currency: 'BTC',
        fields: { amount: 'The amount must be between 0.00015385 BTC and 2 BTC for this pair' },
      },
    });
    const above = await call(t, 'POST', '/api/exchange/exchanges', { token: user.token, body: { ...SWAP, amount: 2.5 } });
    expect(above.status).toBe(422);
    expect(above.json).toMatchObject({
      code: 'AMOUNT_ABOVE_MAXIMUM',
      error: 'The amount must be between 0.00015385 BTC and 2 BTC for this pair',
    });
    // The limits hold for fixed-rate exchanges too.
    const quote = await fixedQuote(t, 3);
    const fixedAbove = await call(t, 'POST', '/api/exchange/exchanges', {
      token: user.token,
      body: { ...SWAP, amount: 3, rateType: 'fixed', rateId: quote.rateId },
    });
    expect(fixedAbove.json.code).toBe('AMOUNT_ABOVE_MAXIMUM');
    // At the limits it is accepted.
    expect((await call(t, 'POST', '/api/exchange/exchanges', { token: user.token, body: { ...SWAP, amount: 2 } })).status).toBe(201);
    const mine = await call(t, 'GET', '/api/exchange/exchanges', { token: user.token });
    expect(mine.json.total).toBe(1);
  });

  it('validates a refund address and its memo in the currency sent, passes them to the provider and keeps them', async () => {
    const user = await registerUser(t);
    const create = (body: Json) => call(t, 'POST', '/api/exchange/exchanges', { token: user.token, body: { ...SWAP, ...body } });
    const cases: [Json, string, string][] = [
      // A refund comes back in the currency sent (BTC here), so an ETH address is wrong.
      [{ refundAddress: ETH_ADDRESS }, 'refundAddress', 'That is not a valid BTC refund address'],
      [{ refundAddress: BTC_ADDRESS.slice(0, -1) + 'x' }, 'refundAddress', 'That is not a valid BTC refund address'],
      [{ refundAddress: BTC_ADDRESS, refundExtraId: '123' }, 'refundExtraId', 'BTC refunds take no memo'],
      [{ refundExtraId: '123' }, 'refundAddress', 'Enter the refund address this memo belongs to'],
      [
        { from: 'xrp', amount: 100, refundAddress: XRP_ADDRESS, refundExtraId: 'abc' },
        'refundExtraId',
        'The destination tag must be a whole number up to 4294967295',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.code).toBe('INVALID_REFUND_ADDRESS');
      expect(res.json.details.fields[field]).toBe(message);
    }
    expect((await call(t, 'GET', '/api/exchange/exchanges', { token: user.token })).json.total).toBe(0);

    const res = await create({ from: 'xrp', amount: 100, refundAddress: XRP_ADDRESS, refundExtraId: '77' });
    expect(res.status).toBe(201);
    const exchange = res.json.data.exchange as Json & { _id: string; providerExchangeId: string };
    expect(exchange).toMatchObject({
      refundAddress: XRP_ADDRESS,
      refundExtraId: '77',
      rateType: 'floating',
      rateId: null,
      rateValidUntil: null,
    });
    expect(await atProvider(t, exchange.providerExchangeId)).toMatchObject({ refundAddress: XRP_ADDRESS, refundExtraId: '77' });
    const read = await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token });
    expect(read.json.exchange).toMatchObject({ refundAddress: XRP_ADDRESS, refundExtraId: '77' });
  });

  it('creates a fixed-rate exchange at its quote, records the rate, and lets the unpaid exchange expire with it', async () => {
    const user = await registerUser(t);
    const quote = await fixedQuote(t);
    const res = await call(t, 'POST', '/api/exchange/exchanges', {
      token: user.token,
      body: { ...SWAP, rateType: 'fixed', rateId: quote.rateId, refundAddress: BTC_ADDRESS },
    });
    expect(res.status).toBe(201);
    const exchange = res.json.data.exchange as Json & { _id: string; providerExchangeId: string };
    expect(exchange).toMatchObject({
      rateType: 'fixed',
      rateId: quote.rateId,
      rateValidUntil: quote.validUntil,
      // The quoted amount, not the floating one.
      expectedAmount: quote.estimatedAmount,
      refundAddress: BTC_ADDRESS,
    });
    expect(await atProvider(t, exchange.providerExchangeId)).toMatchObject({
      expectedReceiveAmount: 0.20109375,
      refundAddress: BTC_ADDRESS,
    });

    // Nobody pays: after the quote's expiry the provider lets the exchange expire.
    const read = await after(quote.validUntil, () => call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token }));
    expect(read.json.exchange.status).toBe('expired');
  });

  it('refuses a fixed rate without a quote, with a floating one, unknown or expired, answering a new quote', async () => {
    const user = await registerUser(t);
    const create = (body: Json) => call(t, 'POST', '/api/exchange/exchanges', { token: user.token, body: { ...SWAP, ...body } });

    const missing = await create({ rateType: 'fixed' });
    expect(missing.status).toBe(422);
    expect(missing.json).toMatchObject({ code: 'FIXED_RATE_REQUIRED', details: { fields: { rateId: 'Get a fixed-rate quote first' } } });
    const quote = await fixedQuote(t);
    expect((await create({ rateId: quote.rateId })).json.code).toBe('FIXED_RATE_REQUIRED');

    // A quote for another pair, or an altered one, is unknown to the provider.
    const tampered = await create({ rateType: 'fixed', rateId: `${quote.rateId.slice(0, -2)}xx` });
    expect(tampered.status).toBe(422);
    expect(tampered.json.code).toBe('FIXED_RATE_UNKNOWN');
    expect(tampered.json.error).toMatch(
      /^That fixed rate is not known\. New quote: 0\.20109375 ETH, fixed rate valid until \d\d:\d\d:\d\d UTC/,
    );
    expect(tampered.json.details.quote).toMatchObject({ rateType: 'fixed', estimatedAmount: '0.20109375', rateId: expect.any(String) });

    const expired = await after(quote.validUntil, () => create({ rateType: 'fixed', rateId: quote.rateId }));
    expect(expired.status).toBe(422);
    expect(expired.json.code).toBe('FIXED_RATE_EXPIRED');
    expect(expired.json.error).toMatch(/^That fixed rate has expired\. New quote: /);
    const fresh = expired.json.details.quote as { rateId: string; validUntil: string };
    expect(fresh.rateId).not.toBe(quote.rateId);
    expect(Date.parse(fresh.validUntil)).toBeGreaterThan(Date.now());
    expect((await call(t, 'GET', '/api/exchange/exchanges', { token: user.token })).json.total).toBe(0);

    // The new quote is honoured.
    const ok = await create({ rateType: 'fixed', rateId: fresh.rateId });
    expect(ok.status).toBe(201);
    expect(ok.json.data.exchange).toMatchObject({ rateType: 'fixed', rateId: fresh.rateId });
  });
});
