import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD } from '../../test/http.js';
import { ENGINES, startTestApp, type TestApp } from '../../test/test-app.js';
import { setRole } from '../users/users.service.js';

describe.each(ENGINES)('operator console API on %s', (engine) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let support: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function auditCount(): Promise<number> {
    return (await t.database.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n as number;
  }

  it('lets staff search users by name, email or id', async () => {
    const target = await registerUser(t);
    for (const search of [target.username, `${target.username}@example.com`, target.userId]) {
      const res = await call(t, 'GET', `/api/admin/users?search=${encodeURIComponent(search)}`, { token: support.token });
      expect(res.status).toBe(200);
      expect(res.json.users.map((u: { _id: string }) => u._id)).toEqual([target.userId]);
    }
    const detail = await call(t, 'GET', `/api/admin/users/${target.userId}`, { token: support.token });
    expect(detail.json.user).toMatchObject({ _id: target.userId, credits: 0, disabled: false });
    expect(detail.json.sessions).toHaveLength(1);
  });

  it('refuses admin-only calls to a plain user and to support, and changes nothing', async () => {
    const target = await registerUser(t);
    const before = await auditCount();
    for (const caller of [target, support]) {
      const role = await call(t, 'PUT', `/api/admin/users/${target.userId}/role`, { token: caller.token, body: { role: 'admin' } });
      expect(role.status).toBe(403);
      const disable = await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, { token: caller.token, body: { disabled: true, reason: 'no reason' } });
      expect(disable.status).toBe(403);
      const adjust = await call(t, 'POST', '/api/admin/credits/adjustments', { token: caller.token, body: { userId: target.userId, amount: 10, reason: 'gift' } });
      expect(adjust.status).toBe(403);
    }
    expect((await call(t, 'GET', '/api/admin/users', { token: target.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/audit', { token: target.token })).status).toBe(403);
    const me = await call(t, 'GET', '/api/auth/me', { token: target.token });
    expect(me.json.user.role).toBe('user');
    expect(await auditCount()).toBe(before);
  });

  it('changes a role and records who, what, before and after', async () => {
    const target = await registerUser(t);
    expect((await call(t, 'GET', '/api/staff/tickets', { token: target.token })).status).toBe(403);
    const res = await call(t, 'PUT', `/api/admin/users/${target.userId}/role`, { token: admin.token, body: { role: 'support', subroles: ['payments'] } });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ role: 'support', subroles: ['payments'] });
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${target.userId}`, { token: admin.token });
    expect(audit.json.entries[0]).toMatchObject({
      action: 'user.role_changed',
      actor: { _id: admin.userId, username: admin.username },
      before: { role: 'user', subroles: [] },
      after: { role: 'support', subroles: ['payments'] },
    });
    // Staff rights are read from the database: the promoted user can reach staff calls at once.
    expect((await call(t, 'GET', '/api/staff/tickets', { token: target.token })).status).toBe(200);
  });

  it('disables an account, ending its sessions, and re-enables it', async () => {
    const target = await registerUser(t);
    expect((await call(t, 'GET', '/api/auth/me', { token: target.token })).status).toBe(200);
    const off = await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, { token: admin.token, body: { disabled: true, reason: 'fraud review' } });
    expect(off.json.user.disabled).toBe(true);
    expect((await call(t, 'GET', '/api/auth/me', { token: target.token })).status).toBe(401);
    const login = await call(t, 'POST', '/api/login', { body: { username: target.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false } });
    expect(login.status).toBe(403);
    await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, { token: admin.token, body: { disabled: false, reason: 'cleared' } });
    const again = await call(t, 'POST', '/api/login', { body: { username: target.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false } });
    expect(again.status).toBe(200);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${target.userId}`, { token: admin.token });
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toEqual(['user.enabled', 'user.disabled']);
    expect(audit.json.entries[1]).toMatchObject({ reason: 'fraud review', after: { disabled: true, sessionsEnded: 1 } });
  });

  it('refuses an admin demoting or disabling themselves', async () => {
    expect((await call(t, 'PUT', `/api/admin/users/${admin.userId}/role`, { token: admin.token, body: { role: 'user' } })).status).toBe(422);
    expect((await call(t, 'PUT', `/api/admin/users/${admin.userId}/disabled`, { token: admin.token, body: { disabled: true, reason: 'oops' } })).status).toBe(422);
  });

  it('keeps the audit log append-only', async () => {
    await expect(t.database.pool.query("UPDATE audit_log SET action = 'forged'")).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('answers an overview per day', async () => {
    const res = await call(t, 'GET', '/api/admin/overview?days=7', { token: support.token });
    expect(res.status).toBe(200);
    expect(res.json.days).toHaveLength(7);
    const today = res.json.days[6];
    expect(today.signups).toBeGreaterThanOrEqual(2);
    expect(res.json.totalUsers).toBeGreaterThanOrEqual(2);
  });

  it('adjusts credits by +10.00 with a reason, on the ledger and in the audit log, once per key', async () => {
    const target = await registerUser(t);
    // The target's row is now in the read cache; the adjustment must not be hidden behind it.
    expect((await call(t, 'GET', '/api/auth/me', { token: target.token })).json.user.credits).toBe(0);
    const body = { userId: target.userId, amount: 10, reason: 'Goodwill for a slow deposit', idempotencyKey: `k${Date.now()}` };
    const first = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(first.status).toBe(201);
    expect((await call(t, 'GET', '/api/auth/me', { token: target.token })).json.user.credits).toBe(10);
    const again = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(again.json.created).toBe(false);
    const credits = await call(t, 'GET', `/api/users/${target.userId}/credits`, { token: target.token });
    expect(credits.json.credits).toBe(10);
    const ledger = await call(t, 'GET', `/api/admin/users/${target.userId}/ledger`, { token: support.token });
    expect(ledger.json.entries).toHaveLength(1);
    expect(ledger.json.entries[0]).toMatchObject({ kind: 'adjustment', amountCents: 1000, description: 'Goodwill for a slow deposit' });
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${target.userId}`, { token: admin.token });
    expect(audit.json.entries).toHaveLength(1);
    expect(audit.json.entries[0]).toMatchObject({
      action: 'credits.adjusted',
      actor: { username: admin.username },
      before: { balanceCents: 0 },
      after: { balanceCents: 1000, amountCents: 1000 },
      reason: 'Goodwill for a slow deposit',
    });
  });

  it('refuses an adjustment that would make a balance negative, and changes nothing', async () => {
    const target = await registerUser(t);
    const before = await auditCount();
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body: { userId: target.userId, amount: -0.01, reason: 'Claw back' } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('INSUFFICIENT_CREDITS');
    expect((await call(t, 'GET', `/api/admin/users/${target.userId}/ledger`, { token: admin.token })).json.entries).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it('lists payments with filters, shows the IPN history, and re-checks a payment whose IPN was lost', async () => {
    const payer = await registerUser(t);
    const created = await call(t, 'POST', '/api/payments/deposit', { token: payer.token, body: { crypto: 'btc', amount: 100 } });
    expect(created.status).toBeLessThan(300);
    const mine = await call(t, 'GET', '/api/payments/mine', { token: payer.token });
    const payment = mine.json.payments[0];

    const listed = await call(t, 'GET', `/api/admin/payments?userId=${payer.userId}&currency=btc`, { token: support.token });
    expect(listed.json.payments.map((p: { _id: string }) => p._id)).toEqual([payment._id]);
    expect(listed.json.payments[0].owner.username).toBe(payer.username);
    const none = await call(t, 'GET', `/api/admin/payments?userId=${payer.userId}&status=failed`, { token: support.token });
    expect(none.json.total).toBe(0);

    // The provider finishes the payment but the IPN never arrives.
    const moved = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, { body: { status: 'finished', ipn: false } });
    expect(moved.status).toBe(200);
    const rechecked = await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: support.token });
    expect(rechecked.status).toBe(200);
    expect(rechecked.json.payment.status).toBe('completed');
    expect(rechecked.json.events.at(-1)).toMatchObject({ source: 'check', providerStatus: 'finished', creditedCents: 9700 });
    // A second re-check credits nothing more.
    const twice = await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: support.token });
    expect(twice.json.events.at(-1).creditedCents).toBe(0);
    expect((await call(t, 'GET', `/api/users/${payer.userId}/credits`, { token: payer.token })).json.credits).toBe(97);

    expect((await call(t, 'GET', '/api/admin/payments', { token: payer.token })).status).toBe(403);
    expect((await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: payer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/payments/not-an-id', { token: support.token })).status).toBe(404);
  });

  it('lists exchanges for staff only', async () => {
    expect((await call(t, 'GET', '/api/admin/exchanges', { token: support.token })).status).toBe(200);
    const user = await registerUser(t);
    expect((await call(t, 'GET', '/api/admin/exchanges', { token: user.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/exchanges/00000000-0000-0000-0000-000000000000', { token: support.token })).status).toBe(404);
  });

  it('records every other staff change too: ticket answers and status changes, with secrets left out', async () => {
    const user = await registerUser(t);
    const ticket = await call(t, 'POST', '/api/tickets', { token: user.token, body: { subject: 'Audit me please', message: 'hello' } });
    const id = ticket.json.ticket._id as string;
    await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'Answered' } });
    await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } });
    const refused = await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'nonsense' } });
    expect(refused.status).toBe(400);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${id}`, { token: admin.token });
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toEqual([
      'PUT /api/staff/tickets/:id',
      'POST /api/staff/tickets/:id/messages',
    ]);
    expect(audit.json.entries[0]).toMatchObject({ actor: { username: support.username }, targetType: 'tickets', after: { request: { status: 'resolved' } } });
  });

  it('answers 404 for an unknown user id', async () => {
    expect((await call(t, 'GET', '/api/admin/users/00000000-0000-0000-0000-000000000000', { token: support.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/admin/users/nope', { token: support.token })).status).toBe(404);
  });
});
