import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { calculateFee } from '#shared/fees.js';
import { creditDebts } from '#server/modules/credits/credits.tables.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { webhooks } from '#server/modules/webhooks/webhooks.tables.js';
import { registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { postIpn, type Json } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { payments } from './payments.tables.js';

/**
 * Signed IPNs applied in batches (group commit, docs/decisions/0191): many at once are credited once
 * each with balances chained per user, duplicates credit once, anything unusual is answered as the
 * single path answers it, and a batch that fails loses or doubles nothing.
 */
describe.each(enginesFor('database'))('IPNs applied in batches on %s', (engine) => {
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

  const rows = async <T = Json>(query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as T[];

  /** Waiting BTC payments of `usd` for users, as createDeposit leaves them (no provider call needed). */
  async function waitingPayments(wanted: { userId: string; usd: number }[]) {
    return t.database.db
      .insert(payments)
      .values(
        wanted.map(({ userId, usd }) => {
          const fee = calculateFee(usd * 100);
          return {
            userId,
            providerPaymentId: String(randomInt(1, 2 ** 47)),
            status: 'waiting' as const,
            priceAmountCents: usd * 100,
            payCurrency: 'btc',
            payAmount: (usd / 65_000).toFixed(8),
            payAddress: 'bc1qtest',
            feePercent: fee.feePercent,
            feeCents: fee.feeCents,
            creditsCents: fee.creditsCents,
            expiresAt: new Date(Date.now() + 3_600_000),
          };
        }),
      )
      .returning();
  }

  async function waitingPayment(userId: string, usd: number) {
    return (await waitingPayments([{ userId, usd }]))[0]!;
  }

  /** The IPN NOWPayments would send when the payment finished. */
  function finishedIpn(p: { id: string; providerPaymentId: string | null; priceAmountCents: number; payAmount: string | null }): Json {
    return {
      payment_id: Number(p.providerPaymentId),
      payment_status: 'finished',
      order_id: p.id,
      pay_currency: 'btc',
      price_amount: p.priceAmountCents / 100,
      price_currency: 'usd',
      actually_paid: Number(p.payAmount),
    };
  }

  /** Each user's ledger chains: every balance-after is the one before plus the amount, from zero. */
  async function chainBreaks(userIds: string[]): Promise<string[]> {
    const entries = await rows<{ user_id: string; amount_cents: number; balance_after_cents: number }>(sql`
      SELECT user_id, amount_cents, balance_after_cents FROM credit_ledger_entries
      WHERE user_id = ANY(${sql.param(userIds)}::uuid[]) ORDER BY user_id, created_at, balance_after_cents`);
    const last = new Map<string, number>();
    const breaks: string[] = [];
    for (const e of entries) {
      const before = last.get(e.user_id) ?? 0;
      if (Number(e.balance_after_cents) !== before + Number(e.amount_cents))
        breaks.push(`${e.user_id}: ${before} + ${e.amount_cents} != ${e.balance_after_cents}`);
      last.set(e.user_id, Number(e.balance_after_cents));
    }
    return breaks;
  }

  /** A webhook for every event, so what the batch tells users is visible in webhook_deliveries. */
  async function withWebhook(userId: string) {
    await t.database.db.insert(webhooks).values({
      userId,
      url: 'https://hooks.example.invalid/olympus',
      events: ['credits.changed', 'payment.finished'],
      secretCiphertext: 'not-a-real-secret',
      secretHint: 'test',
    });
  }

  /** What was told about each payment: ledger entries, events, webhooks and mails, per payment id. */
  async function toldAbout(ids: string[]) {
    const param = sql.param(ids);
    const count = async (query: ReturnType<typeof sql>) =>
      new Map((await rows<{ id: string; n: number }>(query)).map((r) => [r.id, Number(r.n)]));
    return {
      entries: await count(
        sql`SELECT (metadata->>'paymentId') AS id, count(*)::int AS n FROM credit_ledger_entries WHERE metadata->>'paymentId' = ANY(${param}::text[]) AND kind = 'payment' GROUP BY 1`,
      ),
      events: await count(
        sql`SELECT payment_id::text AS id, count(*)::int AS n FROM payment_events WHERE payment_id = ANY(${param}::uuid[]) GROUP BY 1`,
      ),
      finished: await count(
        sql`SELECT payload->>'paymentId' AS id, count(*)::int AS n FROM webhook_deliveries WHERE event = 'payment.finished' AND payload->>'paymentId' = ANY(${param}::text[]) GROUP BY 1`,
      ),
      creditsChanged: await count(
        sql`SELECT substring(payload->>'reference' from 9) AS id, count(*)::int AS n FROM webhook_deliveries WHERE event = 'credits.changed' AND substring(payload->>'reference' from 9) = ANY(${param}::text[]) GROUP BY 1`,
      ),
      mails: await count(
        sql`SELECT p.id::text AS id, count(m.id)::int AS n FROM payments p JOIN mail_messages m ON m.kind = 'payment_credited' AND m.text_body LIKE '%' || p.id::text || '%' WHERE p.id = ANY(${param}::uuid[]) GROUP BY 1`,
      ),
    };
  }

  it('credits 200 concurrent IPNs of 20 users once each, balances chained per user, each told once', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => registerUser(t)));
    for (const u of users.slice(0, 5)) await withWebhook(u.userId);
    const list = await waitingPayments(Array.from({ length: 200 }, (_, i) => ({ userId: users[i % 20]!.userId, usd: 5 + (i % 7) })));
    // Shuffled, so a user's payments land in different batches and in any order.
    const order = list
      .map((p) => ({ p, k: Math.random() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.p);
    const answers = await Promise.all(order.map((p) => postIpn(t, finishedIpn(p))));
    expect(answers.map((a) => a.status)).toEqual(order.map(() => 200));
    expect(answers.map((a) => a.json.status)).toEqual(order.map(() => 'completed'));

    for (const u of users) {
      const mine = list.filter((p) => p.userId === u.userId);
      const [row] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${u.userId}`);
      expect(Number(row!.credits_cents)).toBe(mine.reduce((sum, p) => sum + p.creditsCents, 0));
    }
    expect(await chainBreaks(users.map((u) => u.userId))).toEqual([]);
    const ids = list.map((p) => p.id);
    const told = await toldAbout(ids);
    const hooked = new Set(users.slice(0, 5).map((u) => u.userId));
    for (const p of list) {
      expect(told.entries.get(p.id)).toBe(1);
      expect(told.events.get(p.id)).toBe(1);
      expect(told.mails.get(p.id)).toBe(1);
      expect(told.finished.get(p.id)).toBe(hooked.has(p.userId) ? 1 : undefined);
      expect(told.creditsChanged.get(p.id)).toBe(hooked.has(p.userId) ? 1 : undefined);
    }
    const [state] = await rows<{ completed: number; stamped: number; transactions: number }>(sql`
      SELECT count(*) FILTER (WHERE p.status = 'completed' AND p.credited_cents = p.credits_cents AND p.completed_at IS NOT NULL)::int AS completed,
             count(*) FILTER (WHERE p.last_checked_at IS NOT NULL)::int AS stamped,
             (SELECT count(DISTINCT e.created_at)::int FROM payment_events e WHERE e.payment_id = ANY(${sql.param(ids)}::uuid[])) AS transactions
      FROM payments p WHERE p.id = ANY(${sql.param(ids)}::uuid[])`);
    expect(state).toMatchObject({ completed: 200, stamped: 200 });
    // Written in batches: fewer transactions (one now() each) than IPNs.
    expect(state!.transactions).toBeLessThan(200);
  }, 90_000);

  it('credits the same IPN sent 20 times at once exactly once, and tells the user once', async () => {
    const user = await registerUser(t);
    await withWebhook(user.userId);
    const p = await waitingPayment(user.userId, 100);
    const body = finishedIpn(p);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postIpn(t, body)));
    expect(answers.map((a) => [a.status, a.json.status])).toEqual(answers.map(() => [200, 'completed']));
    const [row] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${user.userId}`);
    expect(Number(row!.credits_cents)).toBe(9_700);
    const told = await toldAbout([p.id]);
    expect([told.entries.get(p.id), told.finished.get(p.id), told.creditsChanged.get(p.id), told.mails.get(p.id)]).toEqual([1, 1, 1, 1]);
    // Every IPN is in the payment's history, as before; only the first changed anything.
    expect(told.events.get(p.id)).toBe(20);
    const [changed] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM payment_events WHERE payment_id = ${p.id} AND status_before <> status_after`,
    );
    expect(changed!.n).toBe(1);
  });

  it('answers each IPN of a mixed burst as it would alone: good, mismatched, unknown, re-deposit, badly signed', async () => {
    const user = await registerUser(t);
    const good = await Promise.all(Array.from({ length: 6 }, () => waitingPayment(user.userId, 20)));
    const mismatched = await waitingPayment(user.userId, 50);
    const parent = await waitingPayment(user.userId, 65);
    await postIpn(t, finishedIpn(parent)).then((r) => expect(r.status).toBe(200));
    const redepositId = randomInt(1, 2 ** 47);
    const requests = [
      ...good.map((p) => postIpn(t, finishedIpn(p)).then((r) => ({ kind: 'good', status: r.status, body: r.json }))),
      postIpn(t, { ...finishedIpn(mismatched), price_amount: 5_000 }).then((r) => ({ kind: 'mismatch', status: r.status, body: r.json })),
      postIpn(t, { ...finishedIpn(mismatched), pay_currency: 'eth' }).then((r) => ({ kind: 'mismatch', status: r.status, body: r.json })),
      postIpn(t, { ...finishedIpn(good[0]!), payment_id: randomInt(1, 2 ** 47) }).then((r) => ({
        kind: 'unknown',
        status: r.status,
        body: r.json,
      })),
      postIpn(t, {
        payment_id: redepositId,
        parent_payment_id: Number(parent.providerPaymentId),
        payment_status: 'finished',
        pay_currency: 'btc',
        actually_paid: 0.0005,
        actually_paid_at_fiat: 32.5,
      }).then((r) => ({ kind: 'redeposit', status: r.status, body: r.json })),
      postIpn(t, finishedIpn(good[1]!), 'f'.repeat(128)).then((r) => ({ kind: 'unsigned', status: r.status, body: r.json })),
    ];
    const answers = await Promise.all(requests);
    for (const a of answers) {
      if (a.kind === 'good' || a.kind === 'redeposit') expect([a.kind, a.status, a.body.status]).toEqual([a.kind, 200, 'completed']);
      if (a.kind === 'mismatch') expect([a.status, a.body.code]).toEqual([400, 'IPN_MISMATCH']);
      if (a.kind === 'unknown') expect(a.status).toBe(404);
      if (a.kind === 'unsigned') expect([a.status, a.body.code]).toEqual([401, 'INVALID_SIGNATURE']);
    }
    const [mis] = await rows<{ status: string; credited_cents: number }>(
      sql`SELECT status, credited_cents FROM payments WHERE id = ${mismatched.id}`,
    );
    expect(mis).toMatchObject({ status: 'waiting', credited_cents: 0 });
    const [child] = await rows<{ credits_cents: number; status: string }>(
      sql`SELECT credits_cents, status FROM payments WHERE provider_payment_id = ${String(redepositId)}`,
    );
    expect(child!.status).toBe('completed');
    const expected = good.reduce((s, p) => s + p.creditsCents, 0) + parent.creditsCents + Number(child!.credits_cents);
    const [row] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${user.userId}`);
    expect(Number(row!.credits_cents)).toBe(expected);
    expect(await chainBreaks([user.userId])).toEqual([]);
  });

  it('pays what a user owes first when their IPNs arrive among others, once', async () => {
    const debtor = await registerUser(t);
    const others = await Promise.all(Array.from({ length: 3 }, () => registerUser(t)));
    await t.database.db.insert(creditDebts).values({
      userId: debtor.userId,
      reference: `test-debt:${debtor.userId}`,
      reason: 'refunded',
      amountCents: 5_000,
      outstandingCents: 5_000,
      description: 'A refunded payment whose credits were spent',
    });
    const mine = [await waitingPayment(debtor.userId, 20), await waitingPayment(debtor.userId, 40)];
    const theirs = await Promise.all(others.flatMap((u) => [waitingPayment(u.userId, 10), waitingPayment(u.userId, 30)]));
    const all = [...mine, ...theirs].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(all.flatMap((p) => [postIpn(t, finishedIpn(p)), postIpn(t, finishedIpn(p))]));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const credited = mine.reduce((s, p) => s + p.creditsCents, 0);
    const [debt] = await rows<{ outstanding_cents: number }>(
      sql`SELECT outstanding_cents FROM credit_debts WHERE user_id = ${debtor.userId}`,
    );
    expect(Number(debt!.outstanding_cents)).toBe(Math.max(0, 5_000 - credited));
    const [row] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${debtor.userId}`);
    expect(Number(row!.credits_cents)).toBe(Math.max(0, credited - 5_000));
    const [settled] = await rows<{ paid: number }>(
      sql`SELECT coalesce(-sum(amount_cents), 0)::int AS paid FROM credit_ledger_entries WHERE user_id = ${debtor.userId} AND kind = 'settlement'`,
    );
    expect(settled!.paid).toBe(Math.min(5_000, credited));
    for (const u of others) {
      const [r] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${u.userId}`);
      expect(Number(r!.credits_cents)).toBe(theirs.filter((p) => p.userId === u.userId).reduce((s, p) => s + p.creditsCents, 0));
    }
  });

  it('loses and doubles nothing when a batch fails: the failing IPN is refused, the others are credited once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => registerUser(t)));
    const list = await waitingPayments(Array.from({ length: 40 }, (_, i) => ({ userId: users[i % 5]!.userId, usd: 10 })));
    // The poisoned payment's ledger reference already holds a different posting: the batch that meets
    // it fails as a whole and every IPN of it is applied on its own (the single path refuses this one).
    const poisoned = list[17]!;
    await postLedgerEntry(
      t.database.db,
      { userId: poisoned.userId, amountCents: 1, kind: 'payment', reference: `payment:${poisoned.id}`, description: 'Clashing entry' },
      t.app.events,
    );
    const answers = await Promise.all(list.flatMap((p) => [postIpn(t, finishedIpn(p)), postIpn(t, finishedIpn(p))]));
    answers.forEach((a, i) => {
      const p = list[Math.floor(i / 2)]!;
      if (p === poisoned) expect(a.status).toBe(409);
      else expect([a.status, a.json.status]).toEqual([200, 'completed']);
    });
    const [bad] = await rows<{ status: string; credited_cents: number }>(
      sql`SELECT status, credited_cents FROM payments WHERE id = ${poisoned.id}`,
    );
    expect(bad).toMatchObject({ status: 'waiting', credited_cents: 0 });
    for (const u of users) {
      const due =
        list.filter((p) => p.userId === u.userId && p !== poisoned).reduce((s, p) => s + p.creditsCents, 0) +
        (u.userId === poisoned.userId ? 1 : 0);
      const [r] = await rows<{ credits_cents: number }>(sql`SELECT credits_cents FROM users WHERE id = ${u.userId}`);
      expect(Number(r!.credits_cents)).toBe(due);
    }
    const told = await toldAbout(list.map((p) => p.id));
    for (const p of list) expect([p === poisoned, told.mails.get(p.id)]).toEqual([p === poisoned, p === poisoned ? undefined : 1]);
    expect(await chainBreaks(users.map((u) => u.userId))).toEqual([]);
    // The clashing entry was made by hand: record it on its payment so the ledger's invariants hold.
    await t.database.db.execute(sql`UPDATE payments SET credited_cents = 1 WHERE id = ${poisoned.id}`);
  });
});
