import * as OTPAuth from 'otpauth';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADJUSTMENT_APPROVAL_CENTS, REFUND_STEP_UP_CENTS } from '#shared/constants.js';
import { loadConfig } from '#server/config.js';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * Staff powers (docs/security.md#staff-powers): staff two-factor is on unless turned off; every staff
 * action that moves money, grants a role or weakens someone's security asks for the admin's second
 * factor in the same request; a balance adjustment of ADJUSTMENT_APPROVAL_CENTS or more waits for a
 * second admin, and the audit log names both.
 */

type Account = Awaited<ReturnType<typeof registerUser>>;

const codeAt = (secret: string, offset = 0) =>
  new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

describe('staff two-factor by default', () => {
  it('is required unless REQUIRE_STAFF_2FA=0 says otherwise', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(40) }).raw.REQUIRE_STAFF_2FA).toBe('1');
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(40), REQUIRE_STAFF_2FA: '0' }).raw.REQUIRE_STAFF_2FA).toBe('0');
  });
});

describe.each(enginesFor('database'))('staff powers on %s', { timeout: 180_000 }, (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // The default: staff two-factor required.
    t = await startTestApp(engine, { RATE_LIMITS: '0', REQUIRE_STAFF_2FA: '1' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  /** An admin with the authenticator app on (set up before the role, as the console asks staff to). */
  async function adminWithTotp(): Promise<Account & { secret: string }> {
    const u = await registerUser(t);
    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    const secret = setup.json.secret as string;
    expect(
      (
        await call(t, 'POST', '/api/auth/2fa/totp/enable', {
          token: u.token,
          body: { code: codeAt(secret, -1), signOutOtherSessions: false },
        })
      ).status,
    ).toBe(200);
    await t.database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [u.userId]);
    return { ...u, secret };
  }
  const balance = async (userId: string) =>
    Number((await t.database.pool.query('SELECT credits_cents AS c FROM users WHERE id = $1', [userId])).rows[0].c);

  it('keeps an admin without two-factor out of the console', async () => {
    const u = await registerUser(t);
    await t.database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [u.userId]);
    const res = await call(t, 'GET', '/api/admin/users', { token: u.token });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('TWO_FACTOR_REQUIRED');
  });

  it('asks for the second factor to adjust a balance, change a role, reset two-factor and erase an account', async () => {
    const target = await registerUser(t);
    const actions: Array<{ name: string; method: string; path: string; body: Record<string, unknown>; ok: number }> = [
      {
        name: 'adjust a balance',
        method: 'POST',
        path: '/api/admin/credits/adjustments',
        body: { userId: target.userId, amount: 5, reason: 'goodwill' },
        ok: 201,
      },
      { name: 'change a role', method: 'PUT', path: `/api/admin/users/${target.userId}/role`, body: { role: 'support' }, ok: 200 },
      {
        name: 'reset two-factor',
        method: 'POST',
        path: `/api/admin/users/${target.userId}/two-factor/reset`,
        body: { reason: 'lost phone, identity checked' },
        ok: 200,
      },
    ];
    for (const action of actions) {
      // An admin of its own per action: an authenticator code works once, and only the next one after it.
      const admin = await adminWithTotp();
      const missing = await call(t, action.method, action.path, { token: admin.token, body: action.body });
      expect(missing.status, action.name).toBe(403);
      expect(missing.json.code, action.name).toBe('TWO_FACTOR_REQUIRED');
      const made = await call(t, action.method, action.path, {
        token: admin.token,
        body: { ...action.body, twoFactorCode: codeAt(admin.secret) },
      });
      expect(made.status, `${action.name}: ${JSON.stringify(made.json)}`).toBe(action.ok);
    }
    expect(await balance(target.userId)).toBe(500);

    // Erasing a closing account now cannot be undone: the second factor too.
    const closing = await registerUser(t);
    const closed = await call(t, 'DELETE', '/api/users/me', {
      token: closing.token,
      body: { password: TEST_PASSWORD, acknowledgeForfeitedCents: 0 },
    });
    expect(closed.status, JSON.stringify(closed.json)).toBeLessThan(300);
    const other = await adminWithTotp();
    const erase = (extra: Record<string, unknown>) =>
      call(t, 'POST', `/api/admin/account-closures/${closing.userId}/erase`, {
        token: other.token,
        body: { confirmUsername: closing.username, ...extra },
      });
    expect((await erase({})).json.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await erase({ twoFactorCode: codeAt(other.secret) })).status).toBe(200);
  });

  it(`asks for the second factor to refund an order from ${REFUND_STEP_UP_CENTS / 100} credits, not below`, async () => {
    const admin = await adminWithTotp();
    const buyer = await registerUser(t);
    const item = async (priceCents: number) => {
      const res = await call(t, 'POST', '/api/admin/catalogue', {
        token: admin.token,
        body: { name: `Item ${randomUUID().slice(0, 6)}`, description: 'A thing.', priceCents, stock: null },
      });
      expect(res.status).toBe(201);
      return res.json.item as { _id: string; priceCents: number };
    };
    const small = await item(REFUND_STEP_UP_CENTS - 100);
    const large = await item(REFUND_STEP_UP_CENTS);
    await t.database.pool.query('UPDATE users SET credits_cents = 0 WHERE id = $1', [buyer.userId]);
    const fund = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: buyer.userId, amount: 200, reason: 'test funds', twoFactorCode: codeAt(admin.secret) },
    });
    expect(fund.status).toBe(201);
    const buy = async (it: { _id: string; priceCents: number }) => {
      const res = await call(t, 'POST', '/api/orders', {
        token: buyer.token,
        body: { itemId: it._id, expectedPriceCents: it.priceCents },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(res.status).toBe(201);
      return res.json.order._id as string;
    };
    const smallOrder = await buy(small);
    const largeOrder = await buy(large);
    expect((await call(t, 'POST', `/api/admin/orders/${smallOrder}/refund`, { token: admin.token })).status).toBe(200);
    const bare = await call(t, 'POST', `/api/admin/orders/${largeOrder}/refund`, { token: admin.token });
    expect(bare.status).toBe(403);
    expect(bare.json.code).toBe('TWO_FACTOR_REQUIRED');
    expect(
      (
        await call(t, 'POST', `/api/admin/orders/${largeOrder}/refund`, {
          token: admin.token,
          body: { twoFactorCode: codeAt(admin.secret, 1) },
        })
      ).status,
    ).toBe(200);
  });

  describe('four eyes on large adjustments', () => {
    const big = ADJUSTMENT_APPROVAL_CENTS / 100;

    it('waits for a second admin, who cannot be the one who asked, and names both in the audit log', async () => {
      const asker = await adminWithTotp();
      const approver = await adminWithTotp();
      const target = await registerUser(t);
      const before = await balance(target.userId);

      const asked = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: asker.token,
        body: { userId: target.userId, amount: big, reason: 'migrated balance from the old system', twoFactorCode: codeAt(asker.secret) },
      });
      expect(asked.status, JSON.stringify(asked.json)).toBe(202);
      expect(asked.json.request).toMatchObject({
        status: 'pending',
        amountCents: ADJUSTMENT_APPROVAL_CENTS,
        requestedBy: { userId: asker.userId },
      });
      expect(await balance(target.userId)).toBe(before);
      const id = asked.json.request._id as string;

      const pending = await call(t, 'GET', `/api/admin/credits/adjustment-requests?status=pending&userId=${target.userId}`, {
        token: approver.token,
      });
      expect(pending.json.requests.map((r: { _id: string }) => r._id)).toEqual([id]);

      const own = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${id}/approve`, {
        token: asker.token,
        body: { twoFactorCode: codeAt(asker.secret, 1) },
      });
      expect(own.status).toBe(403);
      expect(own.json.code).toBe('FOUR_EYES_REQUIRED');
      const noFactor = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${id}/approve`, { token: approver.token });
      expect(noFactor.json.code).toBe('TWO_FACTOR_REQUIRED');
      expect(await balance(target.userId)).toBe(before);

      const approved = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${id}/approve`, {
        token: approver.token,
        body: { twoFactorCode: codeAt(approver.secret) },
      });
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      expect(approved.json.request).toMatchObject({
        status: 'approved',
        decidedBy: { userId: approver.userId },
        ledgerEntryId: expect.any(String),
      });
      expect(await balance(target.userId)).toBe(before + ADJUSTMENT_APPROVAL_CENTS);

      const again = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${id}/approve`, {
        token: approver.token,
        body: { twoFactorCode: codeAt(approver.secret, 1) },
      });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('ALREADY_DECIDED');

      const audit = await call(t, 'GET', '/api/admin/audit?pageSize=50', { token: approver.token });
      const sentences = (audit.json.entries as Array<{ summary: string }>).map((e) => e.summary).join('\n');
      expect(sentences).toContain(`${asker.username} (admin) asked a second admin to approve an adjustment of +${big.toFixed(2)} credits`);
      expect(sentences).toMatch(
        new RegExp(`${approver.username} \\(admin\\) adjusted the balance of .*approving ${asker.username}'s request`),
      );
    });

    it('posts once when many admins approve at once, and a rejected request never posts', async () => {
      const asker = await adminWithTotp();
      const approvers = await Promise.all(Array.from({ length: 6 }, () => adminWithTotp()));
      const target = await registerUser(t);
      const before = await balance(target.userId);
      const asked = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: asker.token,
        body: {
          userId: target.userId,
          amount: big * 2,
          reason: 'refund of a lost deposit',
          idempotencyKey: `four-eyes-${randomUUID()}`,
          twoFactorCode: codeAt(asker.secret),
        },
      });
      expect(asked.status).toBe(202);
      const id = asked.json.request._id as string;
      const results = await Promise.all(
        approvers.map((a) =>
          call(t, 'POST', `/api/admin/credits/adjustment-requests/${id}/approve`, {
            token: a.token,
            body: { twoFactorCode: codeAt(a.secret) },
          }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      expect(await balance(target.userId)).toBe(before + 2 * ADJUSTMENT_APPROVAL_CENTS);
      const entries = await t.database.pool.query('SELECT count(*)::int AS n FROM credit_ledger_entries WHERE reference = $1', [
        `adjustment-request:${id}`,
      ]);
      expect(entries.rows[0].n).toBe(1);

      const second = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: asker.token,
        body: { userId: target.userId, amount: -big, reason: 'duplicate credit', twoFactorCode: codeAt(asker.secret, 1) },
      });
      expect(second.status).toBe(202);
      const rejected = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${second.json.request._id}/reject`, {
        token: approvers[0]!.token,
        body: { note: 'not a duplicate: two deposits' },
      });
      expect(rejected.status).toBe(200);
      expect(rejected.json.request).toMatchObject({ status: 'rejected', decisionNote: 'not a duplicate: two deposits' });
      const late = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${second.json.request._id}/approve`, {
        token: approvers[1]!.token,
        body: { twoFactorCode: codeAt(approvers[1]!.secret, 1) },
      });
      expect(late.json.code).toBe('ALREADY_DECIDED');
      expect(await balance(target.userId)).toBe(before + 2 * ADJUSTMENT_APPROVAL_CENTS);
    });

    it('asks once for a retried request, and leaves a request that the balance cannot pay pending', async () => {
      const asker = await adminWithTotp();
      const approver = await adminWithTotp();
      const target = await registerUser(t);
      const key = `four-eyes-${randomUUID()}`;
      const body = { userId: target.userId, amount: -big, reason: 'chargeback', idempotencyKey: key };
      const first = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: asker.token,
        body: { ...body, twoFactorCode: codeAt(asker.secret) },
      });
      const retry = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: asker.token,
        body: { ...body, twoFactorCode: codeAt(asker.secret, 1) },
      });
      expect(first.status).toBe(202);
      expect(retry.status).toBe(202);
      expect(retry.json).toMatchObject({ created: false, request: { _id: first.json.request._id } });
      // The account has nothing to take: approving is refused, nothing moves, the request waits.
      const approve = await call(t, 'POST', `/api/admin/credits/adjustment-requests/${first.json.request._id}/approve`, {
        token: approver.token,
        body: { twoFactorCode: codeAt(approver.secret) },
      });
      expect(approve.status).toBe(422);
      expect(approve.json.code).toBe('INSUFFICIENT_CREDITS');
      const list = await call(t, 'GET', `/api/admin/credits/adjustment-requests?userId=${target.userId}`, { token: approver.token });
      expect(list.json.requests).toHaveLength(1);
      expect(list.json.requests[0].status).toBe('pending');
    });

    it('posts an adjustment just below the line at once', async () => {
      const admin = await adminWithTotp();
      const target = await registerUser(t);
      const before = await balance(target.userId);
      const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: admin.token,
        body: {
          userId: target.userId,
          amount: (ADJUSTMENT_APPROVAL_CENTS - 1) / 100,
          reason: 'goodwill',
          twoFactorCode: codeAt(admin.secret),
        },
      });
      expect(res.status).toBe(201);
      expect(await balance(target.userId)).toBe(before + ADJUSTMENT_APPROVAL_CENTS - 1);
    });
  });
});
