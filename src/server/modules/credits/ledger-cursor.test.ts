import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor, INVALID_CURSOR_MESSAGE } from '#shared/schemas/common.js';
import { encodeLedgerCursor } from '#shared/schemas/credits.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * The ledger history by keyset cursor (docs/decisions/0333): `?cursor=` walks the same order as the
 * pages, every entry exactly once, newest first, ties on the instant included; `page`/`pageSize` answer
 * as they always did; a cursor the API did not give out is a 400 that says what to pass.
 */
describe.each(enginesFor('database'))('ledger history by cursor on %s', (engine) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let other: Awaited<ReturnType<typeof registerUser>>;
  /** The user's entry ids in the history's order, as the database sorts them. */
  let expected: string[];
  const ENTRIES = 53;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    user = await registerUser(t);
    other = await registerUser(t);
    // 53 entries over 9 instants (ties of up to 6 entries on one microsecond), in posting order with
    // a consistent running balance; and the other user's entries at the same instants, which no page of
    // this user's may show.
    for (const [owner, reference] of [
      [user.userId, 'cursor-test'],
      [other.userId, 'cursor-other'],
    ] as const) {
      await t.database.pool.query(
        `INSERT INTO credit_ledger_entries (user_id, amount_cents, balance_after_cents, kind, reference, description, created_at)
         SELECT $1::uuid, 100, 100 * i, 'adjustment', $2 || '-' || i, 'Cursor test', timestamptz '2026-03-01 10:00:00.123456+00' + ((i - 1) / 6) * interval '1.000001 second'
         FROM generate_series(1, $3::int) AS i`,
        [owner, reference, ENTRIES],
      );
    }
    const { rows } = await t.database.pool.query<{ id: string }>(
      `SELECT id FROM credit_ledger_entries WHERE user_id = $1 ORDER BY created_at DESC, balance_after_cents DESC, id DESC`,
      [user.userId],
    );
    expected = rows.map((r) => r.id);
    expect(expected.length).toBeGreaterThanOrEqual(ENTRIES);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const history = (query: string) => call(t, 'GET', `/api/credits/history?${query}`, { token: user.token });

  it('pages by cursor cover every entry exactly once, newest first, ties included', async () => {
    const seen: string[] = [];
    let response = await history('pageSize=7');
    expect(response.status).toBe(200);
    for (let guard = 0; ; guard++) {
      expect(guard).toBeLessThan(20);
      seen.push(...response.json.entries.map((e: { _id: string }) => e._id));
      expect(response.json.total).toBe(expected.length);
      expect(response.json.pageSize).toBe(7);
      if (!response.json.nextCursor) break;
      expect(response.json.entries).toHaveLength(7);
      response = await history(`pageSize=7&cursor=${response.json.nextCursor}`);
      expect(response.status, JSON.stringify(response.json)).toBe(200);
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a cursor page is the same as the offset page it follows', async () => {
    const first = await history('page=2&pageSize=10');
    const third = await history('page=3&pageSize=10');
    const next = await history(`pageSize=10&cursor=${first.json.nextCursor}`);
    expect(next.json.entries.map((e: { _id: string }) => e._id)).toEqual(third.json.entries.map((e: { _id: string }) => e._id));
    expect(next.json.nextCursor).toBe(third.json.nextCursor);
  });

  it('page and pageSize work as before, and the last page has no next cursor', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 20); page++) {
      const response = await history(`page=${page}&pageSize=20`);
      expect(response.status).toBe(200);
      expect(response.json.page).toBe(page);
      expect(response.json.total).toBe(expected.length);
      pages.push(...response.json.entries.map((e: { _id: string }) => e._id));
      if (page < Math.ceil(expected.length / 20)) expect(typeof response.json.nextCursor).toBe('string');
      else expect(response.json.nextCursor).toBeNull();
    }
    expect(pages).toEqual(expected);
    const beyond = await history('page=50&pageSize=20');
    expect(beyond.json.entries).toEqual([]);
    expect(beyond.json.nextCursor).toBeNull();
  });

  it('a cursor names a point in the order: past the oldest entry the page is empty', async () => {
    const oldest = encodeLedgerCursor({
      createdAt: '2000-01-01T00:00:00.000000Z',
      balanceAfterCents: 0,
      id: '00000000-0000-0000-0000-000000000000',
    });
    const response = await history(`cursor=${oldest}`);
    expect(response.status).toBe(200);
    expect(response.json.entries).toEqual([]);
    expect(response.json.nextCursor).toBeNull();
  });

  it('another user’s cursor shows only my entries', async () => {
    const response = await call(t, 'GET', '/api/credits/history?pageSize=5', { token: other.token });
    const mine = await history(`pageSize=100&cursor=${response.json.nextCursor}`);
    expect(mine.status).toBe(200);
    expect(mine.json.entries.length).toBeGreaterThan(0);
    for (const entry of mine.json.entries) expect(expected).toContain(entry._id);
  });

  it('a cursor the API did not give out is a 400 that says what to pass', async () => {
    for (const bad of [
      'not a cursor',
      'abc',
      encodeCursor(['2026-03-01T10:00:00.123456Z', '100']),
      encodeCursor(['yesterday', '100', expected[0]!]),
      encodeCursor(['2026-03-01T10:00:00.123456Z', 'lots', expected[0]!]),
      encodeCursor(['2026-03-01T10:00:00.123456Z', '100', 'not-a-uuid']),
      'x'.repeat(500),
    ]) {
      const response = await history(`cursor=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect(JSON.stringify(response.json), bad).toContain(INVALID_CURSOR_MESSAGE);
    }
  });
});
