import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { calculateFee, feePercentFor, toCents } from '#shared/fees.js';
import { signIpnPayload } from './ipn-signature.js';
import { NowPaymentsClient, NowPaymentsError } from './nowpayments.client.js';
import { RECONCILE_JOB } from './payments.module.js';
import { nextStatus, partialCreditsCents } from './payment-rules.js';
import { payments } from './payments.tables.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';

const SANDBOX_IPN_SECRET = 'sandbox-ipn-secret';

type Json = Record<string, unknown>;

async function deposit(t: TestApp, token: string, body: Json = { crypto: 'btc', amount: 100 }) {
  return call(t, 'POST', '/api/payments/deposit', { token, body });
}

/** Moves the sandbox payment, as the provider would; the sandbox sends the signed IPN. */
async function control(t: TestApp, providerPaymentId: string, body: Json) {
  const res = await call(t, 'POST', `/sandbox/nowpayments/payments/${providerPaymentId}/status`, { body });
  expect(res.status).toBe(200);
  return res.json as { payment: Json; ipn: { delivered: boolean; statusCode: number | null } | null };
}

async function balance(t: TestApp, token: string, userId: string): Promise<number> {
  const res = await call(t, 'GET', `/api/users/${userId}/credits`, { token });
  return res.json.credits as number;
}

/** Polls the payment's status until the ledger has it (`completed`) or 20 s pass; answers the last status. */
async function statusOnceCompleted(t: TestApp, paymentId: string, token: string): Promise<string> {
  await t.app.jobs.drain(); // the credit may ride on a job: run it now rather than wait for a poll
  const deadline = Date.now() + 20_000;
  let status = '';
  while (Date.now() < deadline) {
    status = (await call(t, 'GET', `/api/payments/${paymentId}/status`, { token })).json.paymentData.payment_status;
    if (status === 'completed') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return status;
}

async function ledger(t: TestApp, token: string) {
  const res = await call(t, 'GET', '/api/credits/history?pageSize=100', { token });
  expect(res.status).toBe(200);
  return res.json as { entries: Json[]; balanceCents: number; total: number };
}

/** The provider's payment as NOWPayments would post it, for hand-made IPNs. */
async function providerPayment(t: TestApp, providerPaymentId: string): Promise<Json> {
  const res = await fetch(`${t.url}/sandbox/nowpayments/v1/payment/${providerPaymentId}`, { headers: { 'x-api-key': 'sandbox-api-key' } });
  return (await res.json()) as Json;
}

async function postIpn(t: TestApp, body: Json, signature = signIpnPayload(body, SANDBOX_IPN_SECRET)) {
  return call(t, 'POST', '/api/payments/ipn', { body, headers: { 'x-nowpayments-sig': signature } });
}

describe.each(enginesFor('database'))('crypto top-ups through NOWPayments on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('talks to the provider (here its sandbox) with x-api-key through the real client', async () => {
    const client = new NowPaymentsClient({ apiKey: 'sandbox-api-key', baseUrl: () => `${t.url}/sandbox/nowpayments/v1` });
    expect(await client.status()).toEqual({ message: 'OK' });
    expect(await client.currencies()).toEqual(expect.arrayContaining(['btc', 'xrp', 'xlm']));
    expect((await client.fullCurrencies()).find((c) => c.code === 'XLM')).toMatchObject({ enable: true, extra_id_exists: true });
    expect(await client.merchantCoins()).toEqual(expect.arrayContaining(['BTC', 'XRP']));
    expect(await client.minAmount('btc', 'btc')).toMatchObject({ currency_from: 'btc', fiat_equivalent: 1 });
    expect(await client.estimate(100, 'usd', 'btc')).toMatchObject({ currency_to: 'btc', estimated_amount: 0.00153846 });
    const created = await client.createPayment({ price_amount: 20, price_currency: 'usd', pay_currency: 'xlm', order_id: 'order-1' });
    expect(created).toMatchObject({ payment_status: 'waiting', pay_amount: 200, pay_currency: 'xlm', order_id: 'order-1' });
    expect(created.payin_extra_id).toMatch(/^\d+$/);
    expect(await client.getPayment(String(created.payment_id))).toMatchObject({
      payment_id: created.payment_id,
      payment_status: 'waiting',
    });
    const wrongKey = new NowPaymentsClient({ apiKey: 'wrong', baseUrl: () => `${t.url}/sandbox/nowpayments/v1` });
    await expect(wrongKey.status()).rejects.toMatchObject({ name: 'NowPaymentsError', status: 403 });
    await expect(client.getPayment('1')).rejects.toBeInstanceOf(NowPaymentsError);
  });

  it('lists the merchant coins with memo flags and the amount limits', async () => {
    const res = await call(t, 'GET', '/api/payments/cryptos');
    expect(res.status).toBe(200);
    const codes = (res.json.cryptos as Json[]).map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['btc', 'eth', 'xrp', 'xlm', 'usdttrc20']));
    expect((res.json.cryptos as Json[]).find((c) => c.code === 'xrp')).toMatchObject({ name: 'Ripple', hasExtraId: true });
    expect((res.json.cryptos as Json[]).find((c) => c.code === 'btc')).toMatchObject({ name: 'Bitcoin', hasExtraId: false });
    expect(res.json.limits).toEqual({ minAmount: 5, maxAmount: 10_000 });
  });

  it('creates a deposit with address, crypto amount, fee and credits, and credits 97.00 once when finished', async () => {
    const user = await registerUser(t);
    const res = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    expect(res.status).toBe(201);
    const p = res.json.payment as Json;
    expect(res.json.success).toBe(true);
    expect(p).toMatchObject({
      status: 'waiting',
      priceAmount: 100,
      priceCurrency: 'usd',
      payCurrency: 'btc',
      payAmount: '0.00153846',
      feePercent: 3,
      fee: 3,
      credits: 97,
      creditedAmount: 0,
      extraId: null,
    });
    expect(p.payAddress).toMatch(/^bc1q/);
    expect(Date.parse(p.expiresAt as string) - Date.now()).toBeGreaterThan(3590_000);

    expect((await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token })).json.receiptEntryId).toBeNull();
    const status = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
    expect(status.json).toEqual({ success: true, paymentData: { payment_status: 'waiting', price_amount: 100, pay_currency: 'btc' } });

    for (const step of ['confirming', 'confirmed', 'sending']) {
      const moved = await control(t, p.providerPaymentId as string, { status: step });
      expect(moved.ipn).toMatchObject({ delivered: true, statusCode: 200 });
      const s = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
      expect(s.json.paymentData.payment_status).toBe(step);
      expect(await balance(t, user.token, user.userId)).toBe(0);
    }
    await control(t, p.providerPaymentId as string, { status: 'finished' });
    const done = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(done.json.payment).toMatchObject({ status: 'completed', creditedAmount: 97 });
    expect(done.json.balance).toBe(97);

    // The same IPN again (providers do repeat themselves) changes nothing.
    await control(t, p.providerPaymentId as string, { status: 'finished' });
    expect(await balance(t, user.token, user.userId)).toBe(97);
    const history = await ledger(t, user.token);
    expect(history.entries).toHaveLength(1);
    expect(history.entries[0]).toMatchObject({
      kind: 'payment',
      amountCents: 9700,
      balanceAfterCents: 9700,
      reference: `payment:${p._id}`,
    });
    // Payment complete links to the receipt of that credit, which is the owner's alone.
    expect(done.json.receiptEntryId).toBe(history.entries[0]!._id);
    const receipt = await call(t, 'GET', `/api/credits/ledger/${done.json.receiptEntryId}/receipt`, { token: user.token });
    expect(receipt.json.receipt).toMatchObject({ entry: { kind: 'payment', amountCents: 9700 }, payment: { id: p._id } });
    const other = await registerUser(t);
    expect((await call(t, 'GET', `/api/payments/${p._id}`, { token: other.token })).status).toBe(404);
  });

  it('gives memo coins their destination tag', async () => {
    const user = await registerUser(t);
    const res = await deposit(t, user.token, { crypto: 'xrp', amount: 50 });
    expect(res.status).toBe(201);
    expect(res.json.payment.extraId).toMatch(/^\d+$/);
    expect(res.json.payment.payAddress).toMatch(/^r/);
    expect(res.json.payment).toMatchObject({ feePercent: 5, fee: 2.5, credits: 47.5, payAmount: '100' });
  });

  it('refuses amounts outside the limits and unknown currencies, creating nothing', async () => {
    const user = await registerUser(t);
    for (const amount of [4.99, 10_000.01, 0, -5]) {
      const res = await deposit(t, user.token, { crypto: 'btc', amount });
      expect([400, 422]).toContain(res.status);
      expect(res.json.error).toMatch(/amount|greater than zero/i);
    }
    const tooSmall = await deposit(t, user.token, { crypto: 'btc', amount: 4.99 });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.json).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', error: 'Amount must be between 5.00 and 10000.00 USD' });
    const cents = await deposit(t, user.token, { crypto: 'btc', amount: 10.001 });
    expect(cents.status).toBe(400);
    const unknown = await deposit(t, user.token, { crypto: 'nosuchcoin', amount: 20 });
    expect(unknown.status).toBe(422);
    expect(unknown.json.code).toBe('CURRENCY_UNAVAILABLE');
    const mine = await call(t, 'GET', '/api/payments/mine', { token: user.token });
    expect(mine.json).toMatchObject({ payments: [], total: 0 });
    // Boundaries are inclusive.
    expect((await deposit(t, user.token, { crypto: 'btc', amount: 5 })).status).toBe(201);
    expect((await deposit(t, user.token, { crypto: 'btc', amount: 10_000 })).status).toBe(201);
  });

  it('answers 404, never a 500, for a payment id that is not one of ours', async () => {
    const user = await registerUser(t);
    for (const id of [
      '-'.repeat(36),
      'not-a-payment',
      'g'.repeat(8) + '-0000-4000-8000-000000000000',
      '00000000-0000-4000-8000-000000000000',
    ]) {
      for (const path of [`/api/payments/${id}`, `/api/payments/${id}/status`]) {
        const res = await call(t, 'GET', path, { token: user.token });
        expect(res.status, path).toBe(404);
        expect(res.json).toMatchObject({ error: 'Payment not found', code: 'NOT_FOUND' });
      }
    }
  });

  it("hides another user's payment (404) on every call", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const p = (await deposit(t, owner.token)).json.payment as Json;
    for (const path of [`/api/payments/${p._id}`, `/api/payments/${p._id}/status`]) {
      const res = await call(t, 'GET', path, { token: other.token });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: 'Payment not found', code: 'NOT_FOUND' });
    }
    const check = await call(t, 'POST', '/api/payments/check', {
      token: other.token,
      body: { orderId: p._id, txHash: 'abcdef0123456789' },
    });
    expect(check.status).toBe(404);
    const theirs = await call(t, 'GET', '/api/payments/mine', { token: other.token });
    expect(theirs.json.total).toBe(0);
    const owners = await call(t, 'GET', `/api/payments/${p._id}`, { token: owner.token });
    expect(owners.json.payment.txHash).toBeNull();
  });

  it('refuses a forged IPN and changes nothing', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    const body = { ...(await providerPayment(t, p.providerPaymentId as string)), payment_status: 'finished', actually_paid: 0.00153846 };
    const forged = await postIpn(t, body, createHmac('sha512', 'not-the-secret').update(JSON.stringify(body)).digest('hex'));
    expect(forged.status).toBe(401);
    expect(forged.json).toEqual({ error: 'Invalid IPN signature', code: 'INVALID_SIGNATURE' });
    const unsigned = await call(t, 'POST', '/api/payments/ipn', { body });
    expect(unsigned.status).toBe(401);
    // A body changed after signing (a bigger price) fails too.
    const signature = signIpnPayload(body, SANDBOX_IPN_SECRET);
    const tampered = await postIpn(t, { ...body, price_amount: 10_000 }, signature);
    expect(tampered.status).toBe(401);
    const s = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
    expect(s.json.paymentData.payment_status).toBe('waiting');
    expect(await balance(t, user.token, user.userId)).toBe(0);
  });

  it('refuses a signed IPN for an unknown payment, or one that does not match ours', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    const body = { ...(await providerPayment(t, p.providerPaymentId as string)), payment_status: 'finished' };
    const unknown = await postIpn(t, { ...body, payment_id: 1234567890, order_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: 'Unknown payment' });
    const mismatch = await postIpn(t, { ...body, price_amount: 5000 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.code).toBe('IPN_MISMATCH');
    expect(await balance(t, user.token, user.userId)).toBe(0);
  });

  it('credits once when 50 identical IPNs arrive at the same time', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token, { crypto: 'eth', amount: 600 })).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'finished', ipn: false });
    const body = await providerPayment(t, p.providerPaymentId as string);
    const results = await Promise.all(Array.from({ length: 50 }, () => postIpn(t, body)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await balance(t, user.token, user.userId)).toBe(594);
    const history = await ledger(t, user.token);
    expect(history.entries).toHaveLength(1);
    expect(history.balanceCents).toBe(59_400);
  });

  it('credits a re-deposit to the same address (parent_payment_id) as its own payment of its owner, once', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token, { crypto: 'btc', amount: 100 })).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'finished' });
    expect(await balance(t, user.token, user.userId)).toBe(97);
    // Later the user sends 32.50 USD worth to the same address: NOWPayments reports a child payment.
    const childId = String(Number(p.providerPaymentId) + 1);
    const body = {
      ...(await providerPayment(t, p.providerPaymentId as string)),
      payment_id: Number(childId),
      parent_payment_id: Number(p.providerPaymentId),
      payment_status: 'finished',
      actually_paid: 0.0005,
      actually_paid_at_fiat: 32.5,
    };
    const results = await Promise.all([postIpn(t, body), postIpn(t, body), postIpn(t, body)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    // 32.50 USD is in the 5 % tier: fee 1.63 (1.625 rounded half up), 30.87 credits.
    expect(await balance(t, user.token, user.userId)).toBe(127.87);
    const mine = await call(t, 'GET', '/api/payments/mine', { token: user.token });
    expect(mine.json.total).toBe(2);
    expect(mine.json.payments[0]).toMatchObject({
      providerPaymentId: childId,
      status: 'completed',
      priceAmount: 32.5,
      fee: 1.63,
      creditedAmount: 30.87,
    });
    const history = await ledger(t, user.token);
    expect(history.entries.map((e) => e.amountCents)).toEqual([3087, 9700]);
    // A child of a payment we never made is refused like any unknown payment.
    const orphan = await postIpn(t, { ...body, payment_id: 1_000_000_001, parent_payment_id: 1_000_000_000 });
    expect(orphan.status).toBe(404);
    expect(await balance(t, user.token, user.userId)).toBe(127.87);
  });

  it('keeps progress when IPNs arrive out of order', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    const pid = p.providerPaymentId as string;
    await control(t, pid, { status: 'confirmed' });
    await control(t, pid, { status: 'confirming' });
    const s = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
    expect(s.json.paymentData.payment_status).toBe('confirmed');
    await control(t, pid, { status: 'finished' });
    await control(t, pid, { status: 'sending' });
    const after = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
    expect(after.json.paymentData.payment_status).toBe('completed');
  });

  it("credits the USD value received on a partial payment, minus that tier's fee, then the rest when it finishes", async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token, { crypto: 'usdttrc20', amount: 200 })).json.payment as Json;
    expect(p).toMatchObject({ payAmount: '200', credits: 194 });
    await control(t, p.providerPaymentId as string, { status: 'partially_paid', actually_paid: 80 });
    // 80 USD arrived: 5 % tier, 76.00 credits.
    let detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'partially_paid', creditedAmount: 76, actuallyPaid: '80' });
    expect(detail.json.balance).toBe(76);
    await control(t, p.providerPaymentId as string, { status: 'partially_paid', actually_paid: 80 });
    expect(await balance(t, user.token, user.userId)).toBe(76);
    await control(t, p.providerPaymentId as string, { status: 'finished' });
    detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'completed', creditedAmount: 194 });
    expect(detail.json.balance).toBe(194);
    const history = await ledger(t, user.token);
    expect(history.entries.map((e) => e.amountCents)).toEqual([11_800, 7_600]);
    // Credited in two parts: the receipt is the newest part's.
    expect(detail.json.receiptEntryId).toBe(history.entries[0]!._id);
  });

  it('takes back the credits of a partial payment the provider refunds, once, as far as the balance holds them', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token, { crypto: 'usdttrc20', amount: 200 })).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'partially_paid', actually_paid: 80 });
    expect(await balance(t, user.token, user.userId)).toBe(76);
    await control(t, p.providerPaymentId as string, { status: 'refunded' });
    await control(t, p.providerPaymentId as string, { status: 'refunded' });
    const detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });
    expect(await balance(t, user.token, user.userId)).toBe(0);
    const history = await ledger(t, user.token);
    expect(history.entries.map((e) => [e.kind, e.amountCents])).toEqual([
      ['refund', -7_600],
      ['payment', 7_600],
    ]);

    // Credits already spent cannot be taken back: the rest is, and the spent part is owed (decision 0120).
    const spender = await registerUser(t);
    const q = (await deposit(t, spender.token, { crypto: 'usdttrc20', amount: 200 })).json.payment as Json;
    await control(t, q.providerPaymentId as string, { status: 'partially_paid', actually_paid: 80 });
    await postLedgerEntry(
      t.database.db,
      { userId: spender.userId, amountCents: -5_000, kind: 'spend', reference: `test-spend:${q._id}`, description: 'Spent' },
      t.app.events,
    );
    await control(t, q.providerPaymentId as string, { status: 'refunded' });
    const spent = await call(t, 'GET', `/api/payments/${q._id}`, { token: spender.token });
    expect(spent.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });
    expect(await balance(t, spender.token, spender.userId)).toBe(0);
    const owed = await call(t, 'GET', '/api/credits/outstanding', { token: spender.token });
    expect(owed.json).toMatchObject({ outstandingCents: 5_000, debts: [{ paymentId: q._id, outstandingCents: 5_000 }] });
  });

  it('shows failed, expired and refunded payments honestly without crediting', async () => {
    const user = await registerUser(t);
    for (const status of ['failed', 'expired', 'refunded']) {
      const p = (await deposit(t, user.token)).json.payment as Json;
      await control(t, p.providerPaymentId as string, { status });
      const s = await call(t, 'GET', `/api/payments/${p._id}/status`, { token: user.token });
      expect(s.json.paymentData.payment_status).toBe(status);
    }
    expect(await balance(t, user.token, user.userId)).toBe(0);
  });

  it('still credits a payment that arrives after it expired', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'expired' });
    await control(t, p.providerPaymentId as string, { status: 'finished' });
    expect(await balance(t, user.token, user.userId)).toBe(97);
  });

  it('completes a payment whose IPN was lost, through the reconciliation job', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    const moved = await control(t, p.providerPaymentId as string, { status: 'finished', ipn: false });
    expect(moved.ipn).toBeNull();
    expect(await balance(t, user.token, user.userId)).toBe(0);
    await t.app.jobs.send(RECONCILE_JOB);
    expect(await statusOnceCompleted(t, p._id as string, user.token)).toBe('completed');
    expect(await balance(t, user.token, user.userId)).toBe(97);
  });

  it('credits a payment that arrives after it expired even when that IPN is lost, through reconciliation', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'expired' });
    await control(t, p.providerPaymentId as string, { status: 'finished', ipn: false });
    // Expired payments are asked about every half hour, not every minute: make this one due.
    await t.database.db
      .update(payments)
      .set({ lastCheckedAt: sql`now() - interval '31 minutes'` })
      .where(eq(payments.id, p._id as string));
    await t.app.jobs.send(RECONCILE_JOB);
    expect(await statusOnceCompleted(t, p._id as string, user.token)).toBe('completed');
    expect(await balance(t, user.token, user.userId)).toBe(97);
  });

  it('records a transaction hash and re-checks the provider on POST /payments/check', async () => {
    const user = await registerUser(t);
    const p = (await deposit(t, user.token)).json.payment as Json;
    await control(t, p.providerPaymentId as string, { status: 'confirming', ipn: false });
    const res = await call(t, 'POST', '/api/payments/check', { token: user.token, body: { orderId: p._id, txHash: 'ab12cd34ef56ab78' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      paymentData: { payment_status: 'confirming' },
      payment: { txHash: 'ab12cd34ef56ab78' },
    });
    const bad = await call(t, 'POST', '/api/payments/check', { token: user.token, body: { orderId: p._id, txHash: 'x' } });
    expect(bad.status).toBe(400);
  });

  it('lists my payments newest first with filters and pages', async () => {
    const user = await registerUser(t);
    const ids: string[] = [];
    for (const crypto of ['btc', 'eth', 'btc']) ids.push((await deposit(t, user.token, { crypto, amount: 20 })).json.payment._id);
    const all = await call(t, 'GET', '/api/payments/mine', { token: user.token });
    expect(all.json.payments.map((x: Json) => x._id)).toEqual([...ids].reverse());
    const btc = await call(t, 'GET', '/api/payments/mine?currency=btc', { token: user.token });
    expect(btc.json.total).toBe(2);
    const page2 = await call(t, 'GET', '/api/payments/mine?page=2&pageSize=2', { token: user.token });
    expect(page2.json).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page2.json.payments.map((x: Json) => x._id)).toEqual([ids[0]]);
    const waiting = await call(t, 'GET', '/api/payments/mine?status=completed', { token: user.token });
    expect(waiting.json.total).toBe(0);
  });

  it('requires a signed-in user for deposits', async () => {
    const res = await call(t, 'POST', '/api/payments/deposit', { body: { crypto: 'btc', amount: 100 } });
    expect(res.status).toBe(401);
  });
});

/**
 * Two app instances on one PostgreSQL, each with its own pool (docs/architecture.md#principles: they must behave
 * exactly like one). The embedded database belongs to one process, so this runs on PostgreSQL only.
 */
describe.each(enginesFor('database').filter((e) => e === 'postgres'))('two app instances on one %s database', () => {
  let a: TestApp;
  let b: TestApp;
  let bApp: App;
  let bDatabase: Database | undefined;
  beforeAll(async () => {
    a = await startTestApp('postgres', { RATE_LIMITS: '0' });
    bDatabase = await openDatabase({ databaseUrl: a.database.connectionString, dataDir: 'unused' });
    const database = bDatabase;
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      // One deployment: both instances sign and accept the same tokens.
      JWT_SECRET: a.config.raw.JWT_SECRET!,
      DATA_DIR: 'memory://',
      RATE_LIMITS: '0',
    });
    bApp = await buildApp({ config, database, isMigrated: () => true });
    const url = await bApp.listen({ port: 0, host: '127.0.0.1' });
    b = { app: bApp, config, database, url, close: async () => {} };
  });
  afterAll(async () => {
    await bApp?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it('credit one payment once when IPNs and reconciliation race on both instances', async () => {
    const user = await registerUser(a);
    const created = await call(a, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount: 100 } });
    expect(created.status).toBe(201);
    const payment = created.json.payment as { _id: string; providerPaymentId: string };
    // The provider finishes the payment; its IPNs are about to arrive, many times, at both instances.
    const moved = await call(a, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
      body: { status: 'finished', ipn: false },
    });
    expect(moved.status).toBe(200);
    const remote = await (
      await fetch(`${b.url}/sandbox/nowpayments/v1/payment/${payment.providerPaymentId}`, { headers: { 'x-api-key': 'sandbox-api-key' } })
    ).json();
    const headers = { 'x-nowpayments-sig': signIpnPayload(remote, 'sandbox-ipn-secret') };
    const ipns = Array.from({ length: 40 }, (_, i) => call(i % 2 ? b : a, 'POST', '/api/payments/ipn', { body: remote, headers }));
    const [results] = await Promise.all([Promise.all(ipns), a.app.jobs.send('payments.reconcile'), b.app.jobs.send('payments.reconcile')]);
    expect(results.map((r) => `${r.status} ${r.json.error ?? ''}`)).toEqual(Array(40).fill('200 '));

    for (const t of [a, b]) {
      const detail = await call(t, 'GET', `/api/payments/${payment._id}`, { token: user.token });
      expect(detail.json.payment).toMatchObject({ status: 'completed', creditedAmount: 97 });
      expect(detail.json.balance).toBe(97);
    }
    const history = await call(b, 'GET', '/api/credits/history', { token: user.token });
    expect(history.json.total).toBe(1);
    expect(history.json.entries[0]).toMatchObject({ amountCents: 9700, reference: `payment:${payment._id}` });
  });
});

describe('fees (docs/product.md#constants) and payment rules, in shared code', () => {
  it('charges 5 % below 100 USD, 3 % from 100, 1 % from 500; credits = amount - fee', () => {
    expect(calculateFee(500)).toEqual({ amountCents: 500, feePercent: 5, feeCents: 25, creditsCents: 475 });
    expect(calculateFee(9_999)).toEqual({ amountCents: 9_999, feePercent: 5, feeCents: 500, creditsCents: 9_499 });
    expect(calculateFee(10_000)).toEqual({ amountCents: 10_000, feePercent: 3, feeCents: 300, creditsCents: 9_700 });
    expect(calculateFee(49_999)).toEqual({ amountCents: 49_999, feePercent: 3, feeCents: 1_500, creditsCents: 48_499 });
    expect(calculateFee(50_000)).toEqual({ amountCents: 50_000, feePercent: 1, feeCents: 500, creditsCents: 49_500 });
    expect(calculateFee(1_000_000)).toEqual({ amountCents: 1_000_000, feePercent: 1, feeCents: 10_000, creditsCents: 990_000 });
    expect([feePercentFor(0), feePercentFor(9_999), feePercentFor(10_000), feePercentFor(49_999), feePercentFor(50_000)]).toEqual([
      5, 5, 3, 3, 1,
    ]);
  });

  it('rounds the fee to the cent half away from zero, and never loses or invents a cent', () => {
    expect(calculateFee(1_010).feeCents).toBe(51); // 50.5 cents
    expect(calculateFee(1_009).feeCents).toBe(50); // 50.45 cents
    expect(calculateFee(10_050).feeCents).toBe(302); // 301.5 cents
    expect(calculateFee(50_050).feeCents).toBe(501); // 500.5 cents
    for (let cents = 0; cents <= 60_000; cents += 7) {
      const f = calculateFee(cents);
      expect(f.feeCents + f.creditsCents).toBe(cents);
      expect(Math.abs(f.feeCents - (cents * f.feePercent) / 100)).toBeLessThanOrEqual(0.5);
    }
    expect(() => calculateFee(-1)).toThrow(RangeError);
    expect(() => calculateFee(1.5)).toThrow(RangeError);
  });

  it('turns typed dollars into exact cents', () => {
    expect([toCents(0.29), toCents(10.1), toCents(1.15), toCents(100), toCents(4.99), toCents(-12.5)]).toEqual([
      29, 1010, 115, 10_000, 499, -1250,
    ]);
  });

  it("credits what actually arrived on a partial payment, minus that value's tier, never more than the full credits", () => {
    const row = { priceAmountCents: 20_000, payAmount: '200', creditsCents: 19_400 };
    expect(partialCreditsCents(row, '80')).toBe(7_600); // 80.00 USD, 5 %
    expect(partialCreditsCents(row, '150')).toBe(14_550); // 150.00 USD, 3 %
    expect(partialCreditsCents(row, '0.005')).toBe(0); // half a cent arrived: nothing
    expect(partialCreditsCents(row, '500')).toBe(19_400); // more than due: capped
    expect(partialCreditsCents(row, null)).toBe(0);
    expect(partialCreditsCents({ ...row, payAmount: null }, '80')).toBe(0);
  });

  it('moves statuses forward only; finished wins; completed is final', () => {
    expect(nextStatus('waiting', 'confirming')).toBe('confirming');
    expect(nextStatus('confirmed', 'confirming')).toBe('confirmed');
    expect(nextStatus('sending', 'waiting')).toBe('sending');
    expect(nextStatus('expired', 'finished')).toBe('finished');
    expect(nextStatus('failed', 'partially_paid')).toBe('partially_paid');
    expect(nextStatus('partially_paid', 'finished')).toBe('finished');
    expect(nextStatus('partially_paid', 'failed')).toBe('partially_paid');
    // A refund reverses even a credited payment, and is final: a stale `finished` never credits again.
    expect(nextStatus('completed', 'refunded')).toBe('refunded');
    expect(nextStatus('refunded', 'finished')).toBe('refunded');
    expect(nextStatus('refunded', 'partially_paid')).toBe('refunded');
    expect(nextStatus('completed', 'waiting')).toBe('completed');
    expect(nextStatus('waiting', 'something_new')).toBe('waiting');
    expect(nextStatus('pending', 'waiting')).toBe('waiting');
  });
});

describe('IPN signature', () => {
  it('is the hex HMAC-SHA-512 of the JSON with keys sorted at every depth', () => {
    const body = { b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } };
    const expected = createHmac('sha512', 'k').update('{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}').digest('hex');
    expect(signIpnPayload(body, 'k')).toBe(expected);
  });
});
