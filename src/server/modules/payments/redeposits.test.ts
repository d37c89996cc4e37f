import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { balance, control, deposit, history, otherInstance, postIpn, providerPayment, type Json } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { NowPaymentsClient } from './nowpayments.client.js';
import { REDEPOSIT_JOB } from './payments.module.js';
import { PaymentsService } from './payments.service.js';
import { payments } from './payments.tables.js';

/**
 * Re-deposits (money sent again to a payment's address: a new provider payment with
 * `parent_payment_id`) are found by reconciliation through the provider's list of payments, not only
 * by their IPN, and credited once however the IPN, its duplicates and reconciliation race
 * (docs/decisions/0122).
 */
describe.each(enginesFor('database'))('re-deposits found by reconciliation on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A user whose 100 USD BTC payment completed (97.00), and the money they later send again. */
  async function paidUser() {
    const user = await registerUser(t);
    const p = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    await control(t, p.providerPaymentId, { status: 'finished' });
    expect(await balance(t, user)).toBe(97);
    return { user, p };
  }

  /** Money sent again to the parent's address: 0.0005 BTC is 32.50 USD (5 % tier: 30.87 credits). */
  async function redeposit(parentProviderId: string, body: Json) {
    const res = await call(t, 'POST', `/sandbox/nowpayments/payments/${parentProviderId}/redeposit`, { body });
    expect(res.status).toBe(200);
    return res.json as { payment: Json & { payment_id: number; parent_payment_id: number }; ipn: { delivered: boolean } | null };
  }

  async function childRows(providerId: string) {
    return t.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'nowpayments'), eq(payments.providerPaymentId, providerId)));
  }

  it('lists payments only with the JWT of POST /auth, through the real client', async () => {
    const base = `${t.url}/sandbox/nowpayments/v1`;
    const noJwt = await fetch(`${base}/payment/?limit=5&page=0`, { headers: { 'x-api-key': 'sandbox-api-key' } });
    expect(noJwt.status).toBe(401);
    const wrongLogin = new NowPaymentsClient({
      apiKey: 'sandbox-api-key',
      login: { email: 'x@example.com', password: 'nope' },
      baseUrl: () => base,
    });
    await expect(wrongLogin.listPayments({ limit: 5, page: 0 })).rejects.toMatchObject({ name: 'NowPaymentsError', status: 401 });
    const noLogin = new NowPaymentsClient({ apiKey: 'sandbox-api-key', baseUrl: () => base });
    expect(noLogin.canListPayments).toBe(false);
    const client = new NowPaymentsClient({ apiKey: 'sandbox-api-key', login: t.config.nowpayments.login, baseUrl: () => base });
    const { p } = await paidUser();
    const page = await client.listPayments({
      limit: 500,
      page: 0,
      sortBy: 'created_at',
      orderBy: 'desc',
      dateFrom: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(page).toMatchObject({ page: 0, limit: 500 });
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect(page.data.map((x) => String(x.payment_id))).toContain(p.providerPaymentId);
  });

  it('credits a re-deposit whose IPN was lost, once, when its late IPN arrives 5 times while reconciliation runs again', async () => {
    const { user, p } = await paidUser();
    const child = await redeposit(p.providerPaymentId, { actually_paid: 0.0005, ipn: false });
    expect(child.ipn).toBeNull();
    expect(child.payment).toMatchObject({
      parent_payment_id: Number(p.providerPaymentId),
      payment_status: 'finished',
      pay_address: p.payAddress,
    });
    expect(await balance(t, user)).toBe(97);

    // The reconciliation job finds it through the provider's list of payments.
    await t.app.jobs.send(REDEPOSIT_JOB);
    await t.app.jobs.drain(); // the reconciliation job, and every job it queued, has run
    expect(await balance(t, user)).toBe(127.87);

    // The IPN turns up after all, five times, while another instance reconciles again.
    const body = await providerPayment(t, String(child.payment.payment_id));
    const [ipns, again] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => postIpn(t, body))),
      otherInstance(t).discoverRedeposits(),
    ]);
    expect(ipns.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(again.found).toBe(0);
    expect(await balance(t, user)).toBe(127.87);
    const rows = await childRows(String(child.payment.payment_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: user.userId,
      status: 'completed',
      parentPaymentId: p.providerPaymentId,
      creditedCents: 3_087,
      priceAmountCents: 3_250,
    });
    const { entries } = await history(t, user.token);
    expect(entries.map((e) => e.amountCents)).toEqual([3_087, 9_700]);
    expect(entries[0]!.reference).toBe(`payment:${rows[0]!.id}`);
  });

  it("credits once when a re-deposit's IPNs race reconciliation on two instances", async () => {
    const { user, p } = await paidUser();
    const child = await redeposit(p.providerPaymentId, { actually_paid: 0.001, ipn: false });
    const body = await providerPayment(t, String(child.payment.payment_id));
    const a = otherInstance(t);
    const b = otherInstance(t);
    const [ipns] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => postIpn(t, body))),
      a.discoverRedeposits(),
      b.discoverRedeposits(),
      a.discoverRedeposits(),
    ]);
    expect(ipns.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // 0.001 BTC is 65.00 USD: 5 % fee 3.25, 61.75 credits.
    expect(await balance(t, user)).toBe(97 + 61.75);
    expect(await childRows(String(child.payment.payment_id))).toHaveLength(1);
    expect((await history(t, user.token)).entries).toHaveLength(2);
  });

  it('follows a re-deposit found while confirming until it finishes, crediting once', async () => {
    const { user, p } = await paidUser();
    const child = await redeposit(p.providerPaymentId, { actually_paid: 0.0005, status: 'confirming', ipn: false });
    const childId = String(child.payment.payment_id);
    const service = otherInstance(t);
    expect((await service.discoverRedeposits()).found).toBe(1);
    expect((await childRows(childId))[0]).toMatchObject({ status: 'confirming', creditedCents: 0 });
    expect(await balance(t, user)).toBe(97);
    // The rest of the story happens at the provider with every IPN lost: reconciliation follows it.
    await control(t, childId, { status: 'finished', ipn: false });
    await Promise.all([
      service.reconcile({ minAgeSeconds: 0 }),
      otherInstance(t).reconcile({ minAgeSeconds: 0 }),
      service.discoverRedeposits(),
    ]);
    expect((await childRows(childId))[0]).toMatchObject({ status: 'completed', creditedCents: 3_087 });
    expect(await balance(t, user)).toBe(127.87);
    // A late, duplicated `finished` IPN for it changes nothing.
    const body = await providerPayment(t, childId);
    await Promise.all(Array.from({ length: 3 }, () => postIpn(t, body)));
    expect(await balance(t, user)).toBe(127.87);
  });

  it("leaves alone the provider's payments that are not re-deposits of ours, and does nothing without the login", async () => {
    const user = await registerUser(t);
    // A payment made through the same API key by something else (not one of our orders).
    const client = new NowPaymentsClient({ apiKey: 'sandbox-api-key', baseUrl: () => `${t.url}/sandbox/nowpayments/v1` });
    const foreign = await client.createPayment({ price_amount: 50, price_currency: 'usd', pay_currency: 'btc', order_id: 'not-ours' });
    await control(t, String(foreign.payment_id), { status: 'finished', ipn: false });
    // ...and a re-deposit of it.
    await redeposit(String(foreign.payment_id), { actually_paid: 0.0005, ipn: false });
    const result = await otherInstance(t).discoverRedeposits();
    expect(result.listed).toBeGreaterThan(0);
    expect(result.found).toBe(0);
    expect(await childRows(String(foreign.payment_id))).toHaveLength(0);
    expect(await balance(t, user)).toBe(0);

    // Without the dashboard login nothing can be listed: the IPN is then the only way in.
    const { p } = await paidUser();
    await redeposit(p.providerPaymentId, { actually_paid: 0.0005, ipn: false });
    const blind = new PaymentsService({
      db: t.database.db,
      client,
      config: t.config.nowpayments,
      limitsUsd: t.config.depositLimitsUsd,
      ipnCallbackUrl: () => `${t.url}/api/payments/ipn`,
      log: t.app.log,
      events: t.app.events,
    });
    expect(await blind.discoverRedeposits()).toEqual({ listed: 0, found: 0 });
  });
});
