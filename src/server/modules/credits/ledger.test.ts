import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { createUser, setRole } from '#server/modules/users/users.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { creditLedgerEntries } from './credits.tables.js';
import { postLedgerEntry } from './ledger.service.js';

describe.each(enginesFor('database'))('credits ledger on %s', (engine) => {
  let t: TestApp;
  let seq = 0;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const events = () => t.app.events;
  async function newUser(): Promise<string> {
    seq += 1;
    const name = `ledger${Date.now().toString(36)}${seq}`;
    const row = await createUser(db(), { username: name, email: `${name}@example.com`, passwordHash: 'x' });
    return row.id;
  }
  async function state(userId: string) {
    const [u] = await db().select({ c: users.creditsCents }).from(users).where(eq(users.id, userId));
    const [s] = await db()
      .select({ sum: sql<string>`coalesce(sum(${creditLedgerEntries.amountCents}), 0)`, n: sql<string>`count(*)` })
      .from(creditLedgerEntries)
      .where(eq(creditLedgerEntries.userId, userId));
    return { balance: u!.c, sum: Number(s!.sum), count: Number(s!.n) };
  }

  it('posts an entry with its balance after, and a repeated reference posts nothing', async () => {
    const userId = await newUser();
    const first = await postLedgerEntry(
      db(),
      { userId, amountCents: 1250, kind: 'reward', reference: `reward:${userId}`, description: 'Reward' },
      events(),
    );
    expect(first).toMatchObject({ created: true, balanceCents: 1250 });
    expect(first.entry).toMatchObject({ amountCents: 1250, balanceAfterCents: 1250, reference: `reward:${userId}` });
    const again = await postLedgerEntry(
      db(),
      { userId, amountCents: 1250, kind: 'reward', reference: `reward:${userId}`, description: 'Reward' },
      events(),
    );
    expect(again).toMatchObject({ created: false, balanceCents: 1250 });
    expect(again.entry.id).toBe(first.entry.id);
    await expect(
      postLedgerEntry(db(), { userId, amountCents: 9999, kind: 'reward', reference: `reward:${userId}`, description: 'Other' }, events()),
    ).rejects.toMatchObject({ status: 409 });
    expect(await state(userId)).toEqual({ balance: 1250, sum: 1250, count: 1 });
  });

  it('refuses a debit below zero and changes nothing', async () => {
    const userId = await newUser();
    await postLedgerEntry(
      db(),
      { userId, amountCents: 500, kind: 'adjustment', reference: `adjustment:a-${userId}`, description: 'Start' },
      events(),
    );
    await expect(
      postLedgerEntry(
        db(),
        { userId, amountCents: -501, kind: 'spend', reference: `spend:b-${userId}`, description: 'Too much' },
        events(),
      ),
    ).rejects.toMatchObject({ status: 422, code: 'INSUFFICIENT_CREDITS' });
    expect(await state(userId)).toEqual({ balance: 500, sum: 500, count: 1 });
    await postLedgerEntry(
      db(),
      { userId, amountCents: -500, kind: 'spend', reference: `spend:c-${userId}`, description: 'All of it' },
      events(),
    );
    expect(await state(userId)).toEqual({ balance: 0, sum: 0, count: 2 });
  });

  it('never lets an entry be updated or deleted, nor a balance go negative', async () => {
    const userId = await newUser();
    const { entry } = await postLedgerEntry(
      db(),
      { userId, amountCents: 700, kind: 'reward', reference: `reward:imm-${userId}`, description: 'x' },
      events(),
    );
    await expect(
      db().update(creditLedgerEntries).set({ amountCents: 70_000 }).where(eq(creditLedgerEntries.id, entry.id)),
    ).rejects.toThrow();
    await expect(db().delete(creditLedgerEntries).where(eq(creditLedgerEntries.id, entry.id))).rejects.toThrow();
    await expect(db().execute(sql`TRUNCATE credit_ledger_entries`)).rejects.toThrow();
    await expect(db().update(users).set({ creditsCents: -1 }).where(eq(users.id, userId))).rejects.toThrow();
    const [still] = await db().select().from(creditLedgerEntries).where(eq(creditLedgerEntries.id, entry.id));
    expect(still!.amountCents).toBe(700);
    // The unique reference holds at the database too, not only in postLedgerEntry.
    await expect(
      db()
        .insert(creditLedgerEntries)
        .values({ userId, amountCents: 1, balanceAfterCents: 701, kind: 'reward', reference: entry.reference, description: 'dup' }),
    ).rejects.toThrow();
  });

  it('keeps balance = sum of entries under concurrent postings, crediting each reference once', async () => {
    const userId = await newUser();
    const distinct = Array.from({ length: 20 }, (_, i) =>
      postLedgerEntry(
        db(),
        { userId, amountCents: 100 + i, kind: 'reward', reference: `reward:c${i}-${userId}`, description: 'c' },
        events(),
      ),
    );
    const same = Array.from({ length: 20 }, () =>
      postLedgerEntry(
        db(),
        { userId, amountCents: 5000, kind: 'payment', reference: `payment:same-${userId}`, description: 'same' },
        events(),
      ),
    );
    const results = await Promise.all([...distinct, ...same]);
    expect(results.filter((r) => r.created)).toHaveLength(21);
    const expected = 5000 + Array.from({ length: 20 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    expect(await state(userId)).toEqual({ balance: expected, sum: expected, count: 21 });
  });

  it('property: any sequence of postings keeps balance = sum of entries and never below zero', async () => {
    const posting = fc.record({
      amountCents: fc.integer({ min: -20_000, max: 20_000 }).filter((n) => n !== 0),
      // A small pool of references, so repeats (retries, duplicate IPNs) happen often.
      ref: fc.integer({ min: 0, max: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 15 }), async (postings) => {
        const userId = await newUser();
        const model = new Map<number, number>();
        let expected = 0;
        for (const p of postings) {
          const reference = `adjustment:p${p.ref}-${userId}`;
          const previous = model.get(p.ref);
          const attempt = postLedgerEntry(
            db(),
            { userId, amountCents: p.amountCents, kind: 'adjustment', reference, description: 'prop' },
            events(),
          );
          if (previous !== undefined) {
            if (previous === p.amountCents) expect((await attempt).created).toBe(false);
            else await expect(attempt).rejects.toMatchObject({ status: 409 });
          } else if (expected + p.amountCents < 0) {
            await expect(attempt).rejects.toMatchObject({ status: 422 });
          } else {
            const r = await attempt;
            expect(r.created).toBe(true);
            model.set(p.ref, p.amountCents);
            expected += p.amountCents;
            expect(r.balanceCents).toBe(expected);
          }
          const s = await state(userId);
          expect(s.balance).toBe(expected);
          expect(s.sum).toBe(expected);
          expect(s.balance).toBeGreaterThanOrEqual(0);
        }
        // Each entry's balance_after is the running sum in posting order.
        const rows = await db()
          .select()
          .from(creditLedgerEntries)
          .where(eq(creditLedgerEntries.userId, userId))
          .orderBy(creditLedgerEntries.createdAt);
        let running = 0;
        for (const row of rows) {
          running += row.amountCents;
          expect(row.balanceAfterCents).toBe(running);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('answers my history newest first, paginated, and only mine', async () => {
    const me = await registerUser(t);
    const other = await registerUser(t);
    for (let i = 1; i <= 3; i++) {
      await postLedgerEntry(
        db(),
        { userId: me.userId, amountCents: i * 100, kind: 'reward', reference: `reward:h${i}-${me.userId}`, description: `Reward ${i}` },
        events(),
      );
    }
    await postLedgerEntry(
      db(),
      { userId: other.userId, amountCents: 999, kind: 'reward', reference: `reward:o-${other.userId}`, description: 'Theirs' },
      events(),
    );
    const page1 = await call(t, 'GET', '/api/credits/history?pageSize=2', { token: me.token });
    expect(page1.status).toBe(200);
    expect(page1.json).toMatchObject({ total: 3, page: 1, pageSize: 2, balanceCents: 600 });
    expect(page1.json.entries.map((e: { amountCents: number }) => e.amountCents)).toEqual([300, 200]);
    expect(page1.json.entries[0]).toMatchObject({ kind: 'reward', balanceAfterCents: 600, description: 'Reward 3' });
    const page2 = await call(t, 'GET', '/api/credits/history?pageSize=2&page=2', { token: me.token });
    expect(page2.json.entries.map((e: { amountCents: number }) => e.amountCents)).toEqual([100]);
    expect((await call(t, 'GET', '/api/credits/history')).status).toBe(401);
  });

  it('lets an admin adjust a balance with a reason, once per idempotency key; refuses others', async () => {
    const target = await registerUser(t);
    const admin = await registerUser(t);
    await setRole(db(), admin.userId, 'admin');
    const body = { userId: target.userId, amount: 12.5, reason: 'Goodwill after an outage', idempotencyKey: `goodwill-${target.userId}` };
    const denied = await call(t, 'POST', '/api/admin/credits/adjustments', { token: target.token, body });
    expect(denied.status).toBe(403);
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      created: true,
      balanceCents: 1250,
      entry: { kind: 'adjustment', amountCents: 1250, description: 'Balance adjustment by support' },
    });
    const again = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(again.json).toMatchObject({ created: false, balanceCents: 1250 });
    const tooMuch = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { ...body, amount: -20, idempotencyKey: undefined },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.json.code).toBe('INSUFFICIENT_CREDITS');
    const noReason = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body: { ...body, reason: '' } });
    expect(noReason.status).toBe(400);
    const mine = await call(t, 'GET', `/api/users/${target.userId}/credits`, { token: target.token });
    expect(mine.json.credits).toBe(12.5);
  });
});
