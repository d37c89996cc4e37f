import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { postLedgerEntry } from './ledger.service.js';

/**
 * One lock order for every money path (docs/decisions/0301): the user's row first, then the rows that
 * reference it. Thirty requests of one user fired at once at each spending endpoint (and at all of them
 * together) answer without a 500 or a 503, exactly as many succeed as the balance pays for, the rest are
 * refused for the balance, and the ledger is exact. Other people's requests during the burst are served.
 */

const BURST = 30;
const CREATIVE = {
  kind: 'text',
  title: 'Cold storage, done right',
  body: 'Hardware wallets shipped worldwide.',
  targetUrl: 'https://wallets.example.com/',
};

describe.each(enginesFor('database'))('thirty spends of one user at once on %s', { timeout: 180_000 }, (engine) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let apiKey: string;
  let item: { _id: string; priceCents: number };
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const key = await call(t, 'POST', '/api/admin/api-keys', { token: admin.token, body: { name: 'race key' } });
    expect(key.status).toBe(201);
    apiKey = key.json.key as string;
    const created = await call(t, 'POST', '/api/admin/catalogue', {
      token: admin.token,
      body: { name: 'Race item', description: 'Bought in a burst.', priceCents: 300, stock: null },
    });
    expect(created.status).toBe(201);
    item = created.json.item as { _id: string; priceCents: number };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  async function userWith(cents: number) {
    const account = await registerUser(t);
    seq += 1;
    await postLedgerEntry(
      t.database.db,
      {
        userId: account.userId,
        amountCents: cents,
        kind: 'adjustment',
        reference: `adjustment:race-${account.userId}-${seq}`,
        description: 'Test credits',
      },
      t.app.events,
    );
    return account;
  }
  const balance = async (userId: string) =>
    Number((await t.database.pool.query('SELECT credits_cents AS c FROM users WHERE id = $1', [userId])).rows[0].c);
  const spends = async (userId: string) =>
    Number(
      (await t.database.pool.query("SELECT count(*)::int AS n FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'spend'", [userId]))
        .rows[0].n,
    );

  const campaign = (token: string) =>
    call(t, 'POST', '/api/ad-campaigns', {
      token,
      body: {
        requestId: randomUUID(),
        name: 'Burst campaign',
        placements: ['patch-notes'],
        startsAt: new Date(Date.now() - 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        priceModel: 'cpm',
        priceCents: 1000,
        budgetCents: 500,
        creatives: [CREATIVE],
      },
    });
  const charge = (userId: string, idempotencyKey = randomUUID()) =>
    call(t, 'POST', '/api/v1/charges', {
      token: apiKey,
      body: { userId, amountCents: 500, description: 'Burst charge' },
      headers: { 'idempotency-key': idempotencyKey },
    });
  const order = (token: string) =>
    call(t, 'POST', '/api/orders', {
      token,
      body: { itemId: item._id, expectedPriceCents: item.priceCents },
      headers: { 'Idempotency-Key': randomUUID() },
    });

  /** Fires `requests` at once while someone else signs in and reads their account: everyone is served. */
  async function burst(requests: Array<() => Promise<{ status: number; json: { code?: string } }>>) {
    const bystander = await registerUser(t);
    const [results, others] = await Promise.all([
      Promise.all(requests.map((r) => r())),
      Promise.all(Array.from({ length: 10 }, () => call(t, 'GET', '/api/auth/me', { token: bystander.token }))),
    ]);
    expect(others.map((r) => r.status)).toEqual(others.map(() => 200));
    const statuses = results.map((r) => `${r.status}${r.status >= 400 ? ` ${r.json.code}` : ''}`);
    expect(
      statuses.filter((s) => s.startsWith('5')),
      statuses.join(', '),
    ).toEqual([]);
    return statuses;
  }

  it('campaigns: as many as the balance reserves, the rest refused for the balance', async () => {
    const owner = await userWith(3_000); // six budgets of 5.00
    const statuses = await burst(Array.from({ length: BURST }, () => () => campaign(owner.token)));
    expect(statuses.filter((s) => s === '201')).toHaveLength(6);
    expect(statuses.filter((s) => s === '422 INSUFFICIENT_CREDITS')).toHaveLength(BURST - 6);
    expect(await balance(owner.userId)).toBe(0);
    expect(await spends(owner.userId)).toBe(6);
  });

  it('charges: as many as the balance pays, and thirty with one key charge once', async () => {
    const payer = await userWith(4_000); // eight charges of 5.00
    const statuses = await burst(Array.from({ length: BURST }, () => () => charge(payer.userId)));
    expect(statuses.filter((s) => s === '201')).toHaveLength(8);
    expect(statuses.filter((s) => s === '422 INSUFFICIENT_CREDITS')).toHaveLength(BURST - 8);
    expect(await balance(payer.userId)).toBe(0);

    const again = await userWith(1_000);
    const key = randomUUID();
    const answers: Array<{ status: number; json: { code?: string; charge?: { _id: string } } }> = [];
    const same = await burst(
      Array.from({ length: BURST }, () => async () => {
        const res = await charge(again.userId, key);
        answers.push(res);
        return res;
      }),
    );
    // Every request with the key answers the one charge it made (a replay answers as the first did).
    expect(same.filter((s) => s === '201')).toHaveLength(BURST);
    expect(new Set(answers.map((a) => a.json.charge?._id)).size).toBe(1);
    expect(await balance(again.userId)).toBe(500);
    expect(await spends(again.userId)).toBe(1);
  });

  it('orders: as many as the balance buys', async () => {
    const buyer = await userWith(2_100); // seven items of 3.00
    const statuses = await burst(Array.from({ length: BURST }, () => () => order(buyer.token)));
    expect(statuses.filter((s) => s === '201')).toHaveLength(7);
    expect(statuses.filter((s) => s === '422 INSUFFICIENT_CREDITS')).toHaveLength(BURST - 7);
    expect(await balance(buyer.userId)).toBe(0);
  });

  it('all three at once: every success is paid for, and the ledger is exact', async () => {
    const spender = await userWith(5_000);
    const requests = Array.from({ length: BURST }, (_, i) =>
      i % 3 === 0 ? () => campaign(spender.token) : i % 3 === 1 ? () => charge(spender.userId) : () => order(spender.token),
    );
    const statuses = await burst(requests);
    const ok = statuses.filter((s) => s === '201').length;
    expect(ok).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== '201' && s !== '422 INSUFFICIENT_CREDITS')).toEqual([]);
    expect(await spends(spender.userId)).toBe(ok);
    // What the successes cost is exactly what left the balance.
    const spent = Number(
      (
        await t.database.pool.query(
          "SELECT -coalesce(sum(amount_cents), 0)::int AS s FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'spend'",
          [spender.userId],
        )
      ).rows[0].s,
    );
    expect(await balance(spender.userId)).toBe(5_000 - spent);
    expect(await balance(spender.userId)).toBeLessThan(300); // nothing more would have fit
  });
});
