import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { balance, control, deposit, history, otherInstance, postIpn, providerPayment } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { creditDebts } from '#server/modules/credits/credits.tables.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { setRole } from '#server/modules/users/users.service.js';
import { payments } from './payments.tables.js';

type Json = Record<string, unknown>;
type User = Awaited<ReturnType<typeof registerUser>>;

/**
 * A refund of a payment that was already credited (docs/decisions/0120): reversed with its own ledger
 * entry, never below zero, the rest owed and settled by later credits first; staff see the flag, the
 * user sees why. Every provider message is sent duplicated and concurrently.
 */
describe.each(enginesFor('database'))('refunds of credited payments on %s', (engine) => {
  let t: TestApp;
  let staff: User;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A user with a completed 100 USD BTC payment: 97.00 credits. */
  async function paidUser() {
    const user = await registerUser(t);
    const p = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    await control(t, p.providerPaymentId, { status: 'finished' });
    expect(await balance(t, user)).toBe(97);
    return { user, p };
  }

  async function spend(user: User, cents: number, key: string) {
    await postLedgerEntry(
      t.database.db,
      { userId: user.userId, amountCents: -cents, kind: 'spend', reference: `test-spend:${key}`, description: 'Spent' },
      t.app.events,
    );
  }

  async function outstanding(user: User) {
    const res = await call(t, 'GET', '/api/credits/outstanding', { token: user.token });
    expect(res.status).toBe(200);
    return res.json as { outstandingCents: number; debts: Json[] };
  }

  it('takes back every credit of a refunded completed payment once, when the same IPN arrives 5 times at once', async () => {
    const { user, p } = await paidUser();
    await control(t, p.providerPaymentId, { status: 'refunded', ipn: false });
    const body = await providerPayment(t, p.providerPaymentId);
    expect(body.payment_status).toBe('refunded');
    const results = await Promise.all(Array.from({ length: 5 }, () => postIpn(t, body)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });
    expect(await balance(t, user)).toBe(0);
    const { entries } = await history(t, user.token);
    expect(entries.map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['refund', -9_700, 0],
      ['payment', 9_700, 9_700],
    ]);
    expect(entries[0]!.reference).toBe(`payment:${p._id}:refunded:9700`);
    // Nothing was owed: no flag, no notice.
    expect(await outstanding(user)).toEqual({ outstandingCents: 0, debts: [] });
  });

  it('owes what was already spent when the refund IPN races reconciliation on two instances, and is flagged for staff', async () => {
    const { user, p } = await paidUser();
    await spend(user, 6_000, p._id);
    expect(await balance(t, user)).toBe(37);
    await control(t, p.providerPaymentId, { status: 'refunded', ipn: false });
    const body = await providerPayment(t, p.providerPaymentId);
    // Reconciliation asks about completed payments every six hours: make this one due.
    await t.database.db
      .update(payments)
      .set({ lastCheckedAt: sql`now() - interval '7 hours'` })
      .where(eq(payments.id, p._id));
    const other = otherInstance(t);
    const [ipns, reconciled] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => postIpn(t, body))),
      other.reconcile(),
      other.refreshFromProvider(p._id, 'reconcile'),
      call(t, 'POST', '/api/payments/check', { token: user.token, body: { orderId: p._id, txHash: 'ab12cd34ef56ab78' } }),
    ]);
    expect(ipns.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(reconciled.checked).toBeGreaterThanOrEqual(0);

    // 37.00 taken back by one entry, 60.00 owed; the balance never went below zero.
    expect(await balance(t, user)).toBe(0);
    const { entries } = await history(t, user.token);
    expect(entries.filter((e) => e.kind === 'refund').map((e) => e.amountCents)).toEqual([-3_700]);
    expect(entries).toHaveLength(3);
    const owed = await outstanding(user);
    expect(owed.outstandingCents).toBe(6_000);
    expect(owed.debts).toEqual([
      expect.objectContaining({ paymentId: p._id, reason: 'refunded', amountCents: 6_000, outstandingCents: 6_000, settledAt: null }),
    ]);
    expect(owed.debts[0]!.description).toMatch(/100\.00 USD \(BTC\) refunded/);
    const detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });

    // Staff see the account flagged with the amount and the payment; the user cannot see that list.
    const flagged = await call(t, 'GET', '/api/admin/credits/outstanding', { token: staff.token });
    expect(flagged.status).toBe(200);
    const account = (flagged.json.accounts as Json[]).find((a) => a.userId === user.userId);
    expect(account).toMatchObject({ username: user.username, outstandingCents: 6_000, openDebts: 1 });
    expect((account!.debts as Json[])[0]).toMatchObject({ paymentId: p._id, outstandingCents: 6_000 });
    const one = await call(t, 'GET', `/api/admin/credits/outstanding?userId=${user.userId}`, { token: staff.token });
    expect(one.json.accounts).toHaveLength(1);
    expect((await call(t, 'GET', '/api/admin/credits/outstanding', { token: user.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/credits/outstanding')).status).toBe(401);

    // A stale `finished` IPN arriving after the refund credits nothing again.
    const stale = await postIpn(t, { ...body, payment_status: 'finished' });
    expect(stale.status).toBe(200);
    expect(await balance(t, user)).toBe(0);
    expect((await history(t, user.token)).entries).toHaveLength(3);
  });

  it('settles the outstanding amount first from later top-ups, with visible entries, once under duplicated IPNs', async () => {
    const { user, p } = await paidUser();
    await spend(user, 9_700, p._id);
    await control(t, p.providerPaymentId, { status: 'refunded' });
    expect((await outstanding(user)).outstandingCents).toBe(9_700);

    // A 50 USD top-up (47.50 credits) goes entirely to the 97.00 owed; its IPN arrives 5 times at once.
    const first = await deposit(t, user.token, { crypto: 'eth', amount: 50 });
    await control(t, first.providerPaymentId, { status: 'finished', ipn: false });
    const firstBody = await providerPayment(t, first.providerPaymentId);
    await Promise.all([
      ...Array.from({ length: 5 }, () => postIpn(t, firstBody)),
      otherInstance(t).refreshFromProvider(first._id, 'reconcile'),
    ]);
    expect(await balance(t, user)).toBe(0);
    expect((await outstanding(user)).outstandingCents).toBe(4_950);
    let { entries } = await history(t, user.token);
    expect(entries.slice(0, 2).map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['settlement', -4_750, 0],
      ['payment', 4_750, 4_750],
    ]);
    expect(entries[0]!.description).toBe('Paid towards the outstanding amount (49.50 credits still owed)');

    // An admin adjustment is a credit too: it pays the rest before anything reaches the balance.
    await postLedgerEntry(
      t.database.db,
      { userId: user.userId, amountCents: 6_000, kind: 'adjustment', reference: `adjustment:test-${p._id}`, description: 'Goodwill' },
      t.app.events,
    );
    expect(await balance(t, user)).toBe(10.5);
    const owed = await outstanding(user);
    expect(owed.outstandingCents).toBe(0);
    expect(owed.debts[0]).toMatchObject({ amountCents: 9_700, outstandingCents: 0 });
    expect(owed.debts[0]!.settledAt).not.toBeNull();
    ({ entries } = await history(t, user.token));
    expect(entries.slice(0, 2).map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['settlement', -4_950, 1_050],
      ['adjustment', 6_000, 6_000],
    ]);
    expect(entries[0]!.description).toBe('Outstanding amount paid (49.50 credits)');
    // No longer flagged.
    const flagged = await call(t, 'GET', '/api/admin/credits/outstanding', { token: staff.token });
    expect((flagged.json.accounts as Json[]).some((a) => a.userId === user.userId)).toBe(false);

    // Later credits are the user's again.
    const second = await deposit(t, user.token, { crypto: 'eth', amount: 20 });
    await control(t, second.providerPaymentId, { status: 'finished' });
    expect(await balance(t, user)).toBe(29.5);
  });

  it('settles several debts oldest first, and reverses a partly credited payment the same way', async () => {
    const user = await registerUser(t);
    // A partial payment (80 of 200 USDT arrived: 76.00 credited) and a full one (97.00), all spent.
    const partial = await deposit(t, user.token, { crypto: 'usdttrc20', amount: 200 });
    await control(t, partial.providerPaymentId, { status: 'partially_paid', actually_paid: 80 });
    const full = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    await control(t, full.providerPaymentId, { status: 'finished' });
    await spend(user, 17_300, partial._id);
    // Both refunded, the partial one first; its IPN 5 times at once, the other one twice.
    await control(t, partial.providerPaymentId, { status: 'refunded', ipn: false });
    const partialBody = await providerPayment(t, partial.providerPaymentId);
    await Promise.all(Array.from({ length: 5 }, () => postIpn(t, partialBody)));
    await control(t, full.providerPaymentId, { status: 'refunded' });
    await control(t, full.providerPaymentId, { status: 'refunded' });
    const owed = await outstanding(user);
    expect(owed.outstandingCents).toBe(7_600 + 9_700);
    expect(owed.debts.map((d) => [d.paymentId, d.outstandingCents])).toEqual([
      [full._id, 9_700],
      [partial._id, 7_600],
    ]);
    const partialDetail = await call(t, 'GET', `/api/payments/${partial._id}`, { token: user.token });
    expect(partialDetail.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });

    // 100 USD top-up: 97.00 credits pay the older debt (76.00), then 21.00 of the newer one.
    const topUp = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    await control(t, topUp.providerPaymentId, { status: 'finished' });
    expect(await balance(t, user)).toBe(0);
    const after = await outstanding(user);
    expect(after.debts.map((d) => [d.paymentId, d.outstandingCents])).toEqual([
      [full._id, 7_600],
      [partial._id, 0],
    ]);
    const [settlement] = (await history(t, user.token)).entries;
    expect(settlement).toMatchObject({ kind: 'settlement', amountCents: -9_700, reference: expect.stringMatching(/^settlement:/) });
    const rows = await t.database.db.select().from(creditDebts).where(eq(creditDebts.userId, user.userId));
    expect(rows.every((r) => r.outstandingCents >= 0)).toBe(true);
  });

  it('ignores a refund of a payment that never credited anything, and never owes for it', async () => {
    const user = await registerUser(t);
    const p = await deposit(t, user.token, { crypto: 'btc', amount: 100 });
    await control(t, p.providerPaymentId, { status: 'refunded' });
    const detail = await call(t, 'GET', `/api/payments/${p._id}`, { token: user.token });
    expect(detail.json.payment).toMatchObject({ status: 'refunded', creditedAmount: 0 });
    expect(await outstanding(user)).toEqual({ outstandingCents: 0, debts: [] });
    expect((await history(t, user.token)).entries).toHaveLength(0);
  });
});
