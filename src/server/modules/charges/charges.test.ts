import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { apiKeys } from '#server/modules/api-keys/api-keys.tables.js';
import { hashApiKey } from '#server/modules/api-keys/api-keys.service.js';
import { auditLog } from '#server/modules/audit/audit.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { setRole } from '#server/modules/users/users.service.js';
import { charges } from './charges.tables.js';

/** The charge API and its API keys (decision 0165). */
describe.each(enginesFor('database'))('the charge API on %s', (engine) => {
  let t: TestApp;
  let admin: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp(engine);
    const a = await registerUser(t);
    await setRole(t.database.db, a.userId, 'admin');
    admin = a;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  async function createKey(body: Record<string, unknown> = {}) {
    const res = await call(t, 'POST', '/api/admin/api-keys', {
      token: admin.token,
      body: { name: `key ${randomUUID().slice(0, 8)}`, ...body },
    });
    expect(res.status).toBe(201);
    return { key: res.json.key as string, id: res.json.apiKey._id as string, apiKey: res.json.apiKey };
  }
  /** Registration is limited per address (10 an hour); this suite keeps rate limits on for the per-key limit. */
  const newUser = async () => {
    await t.database.pool.query("DELETE FROM rate_limit_counters WHERE key LIKE 'register:%'");
    return registerUser(t);
  };
  async function fundedUser(cents: number) {
    const u = await newUser();
    if (cents > 0) {
      const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: admin.token,
        body: { userId: u.userId, amount: cents / 100, reason: 'test funds' },
      });
      expect(res.status).toBe(201);
    }
    return u;
  }
  const charge = (key: string, idem: string, body: unknown) =>
    call(t, 'POST', '/api/v1/charges', { token: key, body, headers: { 'idempotency-key': idem } });
  const balance = async (userId: string) =>
    Number((await t.database.pool.query<{ c: string }>('SELECT credits_cents AS c FROM users WHERE id = $1', [userId])).rows[0]!.c);

  it('shows a new key once, stores only its hash, lists it without the key and audits it', async () => {
    const created = await createKey({ name: 'billing service' });
    expect(created.key).toMatch(/^olk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey).toMatchObject({ name: 'billing service', prefix: created.key.slice(0, 17), lastUsedAt: null, revokedAt: null });

    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.keyHash).toBe(hashApiKey(created.key));
    // Nothing in the database holds the key's text.
    const dump = await t.database.pool.query('SELECT row_to_json(k)::text AS j FROM api_keys k');
    for (const r of dump.rows as { j: string }[]) expect(r.j).not.toContain(created.key.slice(17));
    const audit = await t.database.pool.query('SELECT row_to_json(a)::text AS j FROM audit_log a WHERE target_id = $1', [created.id]);
    expect(audit.rows.length).toBe(1);
    expect((audit.rows[0] as { j: string }).j).toContain('api-key.created');
    expect((audit.rows[0] as { j: string }).j).not.toContain(created.key.slice(17));

    const list = await call(t, 'GET', '/api/admin/api-keys', { token: admin.token });
    expect(list.status).toBe(200);
    const listed = list.json.apiKeys.find((k: { _id: string }) => k._id === created.id);
    expect(listed).toMatchObject({ name: 'billing service', prefix: created.apiKey.prefix });
    expect(JSON.stringify(list.json)).not.toContain(created.key);

    // Support staff and users may not manage keys.
    const user = await newUser();
    expect((await call(t, 'GET', '/api/admin/api-keys', { token: user.token })).status).toBe(403);
    expect((await call(t, 'POST', '/api/admin/api-keys', { token: user.token, body: { name: 'x' } })).status).toBe(403);
  });

  it('charges once, answers the charge and the new balance, and notes when the key was used', async () => {
    const { key, id: keyId } = await createKey();
    const u = await fundedUser(1000);
    const res = await charge(key, 'first-charge', {
      userId: u.userId,
      amountCents: 250,
      description: 'Image render',
      metadata: { job: 'r-1' },
    });
    expect(res.status).toBe(201);
    expect(res.json.balanceCents).toBe(750);
    expect(res.json.charge).toMatchObject({
      userId: u.userId,
      amountCents: 250,
      description: 'Image render',
      metadata: { job: 'r-1' },
      status: 'succeeded',
      refundLedgerEntryId: null,
    });
    const [entry] = await t.database.db.select().from(creditLedgerEntries).where(eq(creditLedgerEntries.id, res.json.charge.ledgerEntryId));
    expect(entry).toMatchObject({
      kind: 'spend',
      amountCents: -250,
      balanceAfterCents: 750,
      reference: `charge:${res.json.charge.id}`,
      userId: u.userId,
    });
    expect(await balance(u.userId)).toBe(750);

    const got = await call(t, 'GET', `/api/v1/charges/${res.json.charge.id}`, { token: key });
    expect(got.status).toBe(200);
    expect(got.json.charge).toEqual(res.json.charge);
    expect((await call(t, 'GET', `/api/v1/charges/${randomUUID()}`, { token: key })).status).toBe(404);

    const [k] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(k!.lastUsedAt).toBeInstanceOf(Date);
    // The user sees it in their history.
    const history = await call(t, 'GET', '/api/credits/history', { token: u.token });
    expect(history.json.entries[0]).toMatchObject({ kind: 'spend', amountCents: -250, reference: `charge:${res.json.charge.id}` });
  });

  it('needs the Idempotency-Key header and a valid body', async () => {
    const { key } = await createKey();
    const u = await fundedUser(500);
    const none = await call(t, 'POST', '/api/v1/charges', { token: key, body: { userId: u.userId, amountCents: 1, description: 'x' } });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/idempotency-key/i);
    const bigMetadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expect((await charge(key, 'meta', { userId: u.userId, amountCents: 1, description: 'x', metadata: bigMetadata })).status).toBe(400);
    expect((await charge(key, 'nested', { userId: u.userId, amountCents: 1, description: 'x', metadata: { a: { b: 'c' } } })).status).toBe(
      400,
    );
    expect((await charge(key, 'zero', { userId: u.userId, amountCents: 0, description: 'x' })).status).toBe(400);
    expect((await charge(key, 'frac', { userId: u.userId, amountCents: 1.5, description: 'x' })).status).toBe(400);
    expect(await balance(u.userId)).toBe(500);
  });

  it('answers 10 parallel requests with one Idempotency-Key with one charge', async () => {
    const { key } = await createKey();
    const u = await fundedUser(1000);
    const body = { userId: u.userId, amountCents: 300, description: 'Parallel', metadata: { b: '2', a: '1' } };
    const results = await Promise.all(Array.from({ length: 10 }, () => charge(key, 'same-key-10', body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = new Set(results.map((r) => r.json.charge.id));
    expect(ids.size).toBe(1);
    expect(results.every((r) => r.json.balanceCents === 700)).toBe(true);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true').length).toBe(9);
    expect(await balance(u.userId)).toBe(700);
    const spent = await t.database.db.select().from(creditLedgerEntries).where(eq(creditLedgerEntries.userId, u.userId));
    expect(spent.filter((e) => e.kind === 'spend')).toHaveLength(1);

    // Same body with metadata keys in another order: still the same request.
    const again = await charge(key, 'same-key-10', { ...body, metadata: { a: '1', b: '2' } });
    expect(again.status).toBe(201);
    expect(again.json.charge.id).toBe([...ids][0]);
    expect(again.json.balanceCents).toBe(700);

    // Another key may use the same Idempotency-Key: the scope is the API key.
    const other = await createKey();
    const second = await charge(other.key, 'same-key-10', body);
    expect(second.status).toBe(201);
    expect(second.json.charge.id).not.toBe([...ids][0]);
    expect(await balance(u.userId)).toBe(400);
  });

  it('refuses the same Idempotency-Key with another body (409) and changes nothing', async () => {
    const { key } = await createKey();
    const u = await fundedUser(1000);
    expect((await charge(key, 'reuse-me', { userId: u.userId, amountCents: 100, description: 'One' })).status).toBe(201);
    const reused = await charge(key, 'reuse-me', { userId: u.userId, amountCents: 200, description: 'One' });
    expect(reused.status).toBe(409);
    expect(reused.json.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherUser = await fundedUser(1000);
    expect((await charge(key, 'reuse-me', { userId: otherUser.userId, amountCents: 100, description: 'One' })).status).toBe(409);
    expect(await balance(u.userId)).toBe(900);
    expect(await balance(otherUser.userId)).toBe(1000);
  });

  it('answers 422 with the shortfall when the balance is too low, and 404 for an unknown user', async () => {
    const { key } = await createKey();
    const u = await fundedUser(100);
    const res = await charge(key, 'too-much', { userId: u.userId, amountCents: 350, description: 'Too much' });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { balanceCents: 100, amountCents: 350, shortfallCents: 250 } });
    expect(await balance(u.userId)).toBe(100);
    // Nothing was kept for that key: after a top-up the same request goes through.
    const rows = await t.database.db.select().from(charges).where(eq(charges.userId, u.userId));
    expect(rows).toHaveLength(0);

    const unknown = await charge(key, 'nobody', { userId: randomUUID(), amountCents: 1, description: 'Nobody' });
    expect(unknown.status).toBe(404);
  });

  it('refuses to charge a disabled account (422 USER_DISABLED), and charges it once it is enabled again', async () => {
    const { key } = await createKey();
    const u = await fundedUser(500);
    const setDisabled = (disabled: boolean) =>
      call(t, 'PUT', `/api/admin/users/${u.userId}/disabled`, { token: admin.token, body: { disabled, reason: 'charge test' } });
    expect((await setDisabled(true)).status).toBe(200);
    const refused = await charge(key, 'while-disabled', { userId: u.userId, amountCents: 100, description: 'While disabled' });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'USER_DISABLED' });
    expect(await balance(u.userId)).toBe(500);
    expect(await t.database.db.select().from(charges).where(eq(charges.userId, u.userId))).toHaveLength(0);

    expect((await setDisabled(false)).status).toBe(200);
    const charged = await charge(key, 'while-disabled', { userId: u.userId, amountCents: 100, description: 'While disabled' });
    expect(charged.status).toBe(201);
    expect(await balance(u.userId)).toBe(400);
  });

  it('refunds once, also under parallel refunds', async () => {
    const { key } = await createKey();
    const u = await fundedUser(1000);
    const made = await charge(key, 'to-refund', { userId: u.userId, amountCents: 400, description: 'Refundable' });
    expect(made.status).toBe(201);
    const id = made.json.charge.id as string;
    const results = await Promise.all(Array.from({ length: 8 }, () => call(t, 'POST', `/api/v1/charges/${id}/refund`, { token: key })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.code === 'ALREADY_REFUNDED')).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    expect(ok[0]!.json).toMatchObject({ balanceCents: 1000, charge: { id, status: 'refunded' } });
    const refundEntryId = ok[0]!.json.charge.refundLedgerEntryId as string;
    const [entry] = await t.database.db.select().from(creditLedgerEntries).where(eq(creditLedgerEntries.id, refundEntryId));
    expect(entry).toMatchObject({ kind: 'refund', amountCents: 400, reference: `charge-refund:${id}` });
    expect(await balance(u.userId)).toBe(1000);
    const later = await call(t, 'POST', `/api/v1/charges/${id}/refund`, { token: key });
    expect(later.status).toBe(409);
    expect(later.json.details.refundLedgerEntryId).toBe(refundEntryId);
    expect((await call(t, 'POST', `/api/v1/charges/${randomUUID()}/refund`, { token: key })).status).toBe(404);
    // A replay of the charge now shows it refunded, with the balance right after the charge.
    const replay = await charge(key, 'to-refund', { userId: u.userId, amountCents: 400, description: 'Refundable' });
    expect(replay.status).toBe(201);
    expect(replay.json).toMatchObject({ balanceCents: 600, charge: { id, status: 'refunded' } });
  });

  it('the charge and its refund are told in the app, each linking to its own receipt', async () => {
    const { key } = await createKey();
    const u = await fundedUser(1000);
    const made = await charge(key, 'told', { userId: u.userId, amountCents: 300, description: 'Render job' });
    expect(made.status).toBe(201);
    const refunded = await call(t, 'POST', `/api/v1/charges/${made.json.charge.id}/refund`, { token: key });
    expect(refunded.status).toBe(200);
    const { notifications } = (await call(t, 'GET', '/api/notifications', { token: u.token })).json as {
      notifications: Array<{ event: string; link: string }>;
    };
    const linkOf = (event: string) => notifications.find((n) => n.event === event)?.link;
    expect(linkOf('charge.succeeded')).toBe(`/dashboard/receipts/${made.json.charge.ledgerEntryId}`);
    expect(linkOf('charge.refunded')).toBe(`/dashboard/receipts/${refunded.json.charge.refundLedgerEntryId}`);
    // Each link opens a receipt the owner can read.
    for (const link of [linkOf('charge.succeeded')!, linkOf('charge.refunded')!]) {
      const receipt = await call(t, 'GET', `/api/credits/ledger/${link.split('/').pop()}/receipt`, { token: u.token });
      expect(receipt.status).toBe(200);
    }
  });

  it('refuses a revoked key at once, and revoking is audited', async () => {
    const { key, id } = await createKey();
    const u = await fundedUser(500);
    expect((await charge(key, 'before', { userId: u.userId, amountCents: 1, description: 'ok' })).status).toBe(201);
    const revoked = await call(t, 'POST', `/api/admin/api-keys/${id}/revoke`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.json.apiKey.revokedAt).toEqual(expect.any(String));
    const after = await charge(key, 'after', { userId: u.userId, amountCents: 1, description: 'no' });
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('INVALID_API_KEY');
    expect(await balance(u.userId)).toBe(499);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audits.map((a) => a.action).sort()).toEqual(['api-key.created', 'api-key.revoked']);
    expect((await call(t, 'POST', `/api/admin/api-keys/${randomUUID()}/revoke`, { token: admin.token })).status).toBe(404);
  });

  it('never takes a session token, and a key never works on user endpoints', async () => {
    const { key } = await createKey();
    const u = await fundedUser(500);
    const body = { userId: u.userId, amountCents: 1, description: 'x' };
    for (const token of [u.token, admin.token]) {
      const res = await charge(token, `jwt-${randomUUID()}`, body);
      expect(res.status).toBe(401);
    }
    expect((await call(t, 'POST', '/api/v1/charges', { body, headers: { 'idempotency-key': 'anon' } })).status).toBe(401);
    expect((await charge('olk_live_not-a-real-key-at-all', 'fake', body)).status).toBe(401);
    expect(await balance(u.userId)).toBe(500);

    for (const [method, path] of [
      ['GET', '/api/auth/me'],
      ['GET', '/api/credits/history'],
      ['GET', '/api/admin/api-keys'],
      ['GET', `/api/users/${u.userId}/credits`],
      ['POST', '/api/logout'],
    ] as const) {
      const res = await call(t, method, path, { token: key });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json.code).toBe('API_KEY_NOT_ACCEPTED');
    }
  });

  it('limits each key to its own calls per minute', async () => {
    const limited = await createKey({ rateLimitPerMinute: 3 });
    const other = await createKey();
    const u = await fundedUser(500);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await charge(limited.key, `rl-${i}`, { userId: u.userId, amountCents: 1, description: 'rl' })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await call(t, 'GET', `/api/v1/charges/${randomUUID()}`, { token: limited.key });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key is not affected.
    expect((await charge(other.key, 'rl-other', { userId: u.userId, amountCents: 1, description: 'rl' })).status).toBe(201);
    expect(await balance(u.userId)).toBe(496);
  });

  it('is documented in the OpenAPI document with its own security scheme', async () => {
    const doc = (await call(t, 'GET', '/api/docs')).json;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const post = doc.paths['/api/v1/charges'].post;
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect(post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true })]),
    );
    expect(doc.paths['/api/v1/charges/{id}/refund'].post.security).toEqual([{ apiKey: [] }]);
  });

  it('keeps the database consistent', async () => {
    const [row] = (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM charges WHERE ledger_entry_id IS NULL`)).rows as {
      n: number;
    }[];
    expect(row!.n).toBe(0);
  });
});
