import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { createUser, findUserById, setRole } from '#server/modules/users/users.service.js';

describe.each(enginesFor('database'))('operator console API on %s', (engine) => {
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
      const disable = await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, {
        token: caller.token,
        body: { disabled: true, reason: 'no reason' },
      });
      expect(disable.status).toBe(403);
      const adjust = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: caller.token,
        body: { userId: target.userId, amount: 10, reason: 'gift' },
      });
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
    const res = await call(t, 'PUT', `/api/admin/users/${target.userId}/role`, {
      token: admin.token,
      body: { role: 'support', subroles: ['payments'] },
    });
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
    const off = await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, {
      token: admin.token,
      body: { disabled: true, reason: 'fraud review' },
    });
    expect(off.json.user.disabled).toBe(true);
    expect((await call(t, 'GET', '/api/auth/me', { token: target.token })).status).toBe(401);
    const login = await call(t, 'POST', '/api/login', {
      body: { username: target.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false },
    });
    expect(login.status).toBe(403);
    await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, {
      token: admin.token,
      body: { disabled: false, reason: 'cleared' },
    });
    const again = await call(t, 'POST', '/api/login', {
      body: { username: target.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false },
    });
    expect(again.status).toBe(200);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${target.userId}`, { token: admin.token });
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toEqual(['user.enabled', 'user.disabled']);
    expect(audit.json.entries[1]).toMatchObject({ reason: 'fraud review', after: { disabled: true, sessionsEnded: 1 } });
  });

  it('refuses an admin demoting or disabling themselves', async () => {
    expect((await call(t, 'PUT', `/api/admin/users/${admin.userId}/role`, { token: admin.token, body: { role: 'user' } })).status).toBe(
      422,
    );
    expect(
      (await call(t, 'PUT', `/api/admin/users/${admin.userId}/disabled`, { token: admin.token, body: { disabled: true, reason: 'oops' } }))
        .status,
    ).toBe(422);
  });

  it('keeps the audit log append-only', async () => {
    await expect(t.database.pool.query("UPDATE audit_log SET action = 'forged'")).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('answers an overview per day: sign-ups, deposits, credits issued and spent, tickets, open backlog', async () => {
    const overview = async () => {
      const res = await call(t, 'GET', '/api/admin/overview?days=7', { token: support.token });
      expect(res.status).toBe(200);
      return res.json as { days: Array<Record<string, number | string>>; openTickets: number; totalUsers: number };
    };
    const before = await overview();
    expect(before.days).toHaveLength(7);
    expect(before.days[6]!.day).toBe(new Date().toISOString().slice(0, 10));

    const target = await registerUser(t);
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 10, reason: 'Overview +' },
    });
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: -3.5, reason: 'Overview -' },
    });
    const opened = await call(t, 'POST', '/api/tickets', { token: target.token, body: { subject: 'Overview ticket', message: 'hello' } });
    expect(opened.status).toBe(201);
    const ticketId = opened.json.ticket._id as string;
    const deposit = await call(t, 'POST', '/api/payments/deposit', { token: target.token, body: { crypto: 'btc', amount: 100 } });
    expect(deposit.status).toBeLessThan(300);
    const payment = (await call(t, 'GET', '/api/payments/mine', { token: target.token })).json.payments[0];
    await call(t, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
      body: { status: 'finished', ipn: false },
    });
    await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: support.token });

    const after = await overview();
    const delta = (key: string) => Number(after.days[6]![key]) - Number(before.days[6]![key]);
    expect(delta('signups')).toBe(1);
    expect(delta('deposits')).toBe(1);
    expect(delta('depositedCents')).toBe(9700);
    expect(delta('creditsIssuedCents')).toBe(1000 + 9700);
    expect(delta('creditsSpentCents')).toBe(350);
    expect(delta('ticketsOpened')).toBe(1);
    expect(after.openTickets - before.openTickets).toBe(1);
    expect(after.totalUsers - before.totalUsers).toBe(1);

    // Open tickets at the end of each day: the new ticket counts today only, and stops counting while resolved.
    const backlog = (o: typeof before) => o.days.map((d) => Number(d.openTickets));
    const backlogDelta = (o: typeof before) => backlog(o).map((n, i) => n - backlog(before)[i]!);
    expect(backlog(before).every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
    expect(backlog(before)[6]).toBe(before.openTickets);
    expect(backlogDelta(after)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    const closedAt = async () =>
      (await t.database.pool.query('SELECT closed_at FROM tickets WHERE id = $1', [ticketId])).rows[0].closed_at as Date | null;
    expect(await closedAt()).toBeNull();

    const steps: Array<[string, () => Promise<{ status: number }>, number]> = [
      ['staff resolve', () => call(t, 'PUT', `/api/staff/tickets/${ticketId}`, { token: support.token, body: { status: 'resolved' } }), 0],
      [
        'requester reply reopens',
        () => call(t, 'POST', `/api/tickets/${ticketId}/messages`, { token: target.token, body: { message: 'still broken' } }),
        1,
      ],
      ['requester close', () => call(t, 'PUT', `/api/tickets/${ticketId}`, { token: target.token, body: { status: 'closed' } }), 0],
      ['requester reopen', () => call(t, 'PUT', `/api/tickets/${ticketId}`, { token: target.token, body: { status: 'open' } }), 1],
      ['staff pending', () => call(t, 'PUT', `/api/staff/tickets/${ticketId}`, { token: support.token, body: { status: 'pending' } }), 1],
      [
        'staff resolve again',
        () => call(t, 'PUT', `/api/staff/tickets/${ticketId}`, { token: support.token, body: { status: 'resolved' } }),
        0,
      ],
    ];
    for (const [step, act, open] of steps) {
      const res = await act();
      expect(res.status, step).toBeLessThan(300);
      const now = await overview();
      expect(backlogDelta(now), step).toEqual([0, 0, 0, 0, 0, 0, open]);
      expect(now.openTickets - before.openTickets, step).toBe(open);
      expect((await closedAt()) === null, step).toBe(open === 1);
    }
    // Resolved to closed keeps the moment it stopped being open.
    const resolvedAt = await closedAt();
    await call(t, 'PUT', `/api/staff/tickets/${ticketId}`, { token: support.token, body: { status: 'closed' } });
    expect(await closedAt()).toEqual(resolvedAt);

    // Days past: a ticket opened four days ago and closed two days ago was open at the end of the two days between.
    await t.database.pool.query(
      `UPDATE tickets SET created_at = now() - interval '96 hours', closed_at = now() - interval '48 hours' WHERE id = $1`,
      [ticketId],
    );
    const history = await overview();
    expect(backlogDelta(history)).toEqual([0, 0, 1, 1, 0, 0, 0]);
    expect(Number(history.days[2]!.ticketsOpened) - Number(before.days[2]!.ticketsOpened)).toBe(1);
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
    // No note for the customer: they read a neutral line; staff see the reason beside it.
    expect(ledger.json.entries[0]).toMatchObject({
      kind: 'adjustment',
      amountCents: 1000,
      description: 'Balance adjustment by support',
      internalReason: 'Goodwill for a slow deposit',
    });
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

  it('refuses an adjustment without a reason, and changes nothing', async () => {
    const target = await registerUser(t);
    const before = await auditCount();
    for (const body of [
      { userId: target.userId, amount: 10 },
      { userId: target.userId, amount: 10, reason: '  ' },
    ]) {
      const res = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(Object.keys(res.json.details.fields)).toEqual(['reason']);
    }
    expect((await call(t, 'GET', `/api/admin/users/${target.userId}/ledger`, { token: admin.token })).json.entries).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it('refuses an adjustment that would make a balance negative, and changes nothing', async () => {
    const target = await registerUser(t);
    const before = await auditCount();
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: -0.01, reason: 'Claw back' },
    });
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
    const byName = await call(t, 'GET', `/api/admin/payments?user=${payer.username.toUpperCase()}`, { token: support.token });
    expect(byName.json.payments.map((p: { _id: string }) => p._id)).toEqual([payment._id]);
    expect((await call(t, 'GET', `/api/admin/payments?user=${payer.userId}&currency=eth`, { token: support.token })).json.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await call(t, 'GET', `/api/admin/payments?userId=${payer.userId}&from=${today}&to=${today}`, { token: support.token })).json.total,
    ).toBe(1);
    expect((await call(t, 'GET', `/api/admin/payments?userId=${payer.userId}&from=${tomorrow}`, { token: support.token })).json.total).toBe(
      0,
    );
    expect((await call(t, 'GET', `/api/admin/payments?userId=${payer.userId}&to=${yesterday}`, { token: support.token })).json.total).toBe(
      0,
    );
    expect((await call(t, 'GET', '/api/admin/payments?from=not-a-day', { token: support.token })).status).toBe(400);

    // The provider finishes the payment but the IPN never arrives.
    const moved = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
      body: { status: 'finished', ipn: false },
    });
    expect(moved.status).toBe(200);
    const rechecked = await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: support.token });
    expect(rechecked.status).toBe(200);
    expect(rechecked.json.payment.status).toBe('completed');
    expect(rechecked.json.events.at(-1)).toMatchObject({ source: 'check', providerStatus: 'finished', creditedCents: 9700 });
    // A second re-check credits nothing more.
    const twice = await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: support.token });
    expect(twice.json.events.at(-1).creditedCents).toBe(0);
    expect((await call(t, 'GET', `/api/users/${payer.userId}/credits`, { token: payer.token })).json.credits).toBe(97);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${payment._id}`, { token: admin.token });
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toEqual(['payment.rechecked', 'payment.rechecked']);
    expect(audit.json.entries[1]).toMatchObject({
      actor: { username: support.username },
      before: { status: payment.status, creditedAmount: 0 },
      after: { status: 'completed', creditedAmount: 97 },
    });

    expect((await call(t, 'GET', '/api/admin/payments', { token: payer.token })).status).toBe(403);
    expect((await call(t, 'POST', `/api/admin/payments/${payment._id}/recheck`, { token: payer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/payments/not-an-id', { token: support.token })).status).toBe(404);
  });

  it('lists exchanges with filters, shows the provider data, and re-checks one; staff only', async () => {
    const swapper = await registerUser(t);
    const swap = { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' };
    const created = await call(t, 'POST', '/api/exchange/exchanges', { token: swapper.token, body: swap });
    expect(created.status).toBeLessThan(300);
    const listed = await call(t, 'GET', `/api/admin/exchanges?user=${swapper.username}`, { token: support.token });
    expect(listed.status).toBe(200);
    expect(listed.json.total).toBe(1);
    const exchange = listed.json.exchanges[0];
    expect(exchange.owner).toMatchObject({ userId: swapper.userId, username: swapper.username });
    expect((await call(t, 'GET', `/api/admin/exchanges?userId=${swapper.userId}&currency=ETH`, { token: support.token })).json.total).toBe(
      1,
    );
    expect((await call(t, 'GET', `/api/admin/exchanges?userId=${swapper.userId}&currency=xrp`, { token: support.token })).json.total).toBe(
      0,
    );
    expect(
      (await call(t, 'GET', `/api/admin/exchanges?userId=${swapper.userId}&status=${exchange.status}`, { token: support.token })).json
        .total,
    ).toBe(1);
    expect(
      (await call(t, 'GET', `/api/admin/exchanges?userId=${swapper.userId}&status=refunded`, { token: support.token })).json.total,
    ).toBe(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(
      (await call(t, 'GET', `/api/admin/exchanges?userId=${swapper.userId}&from=${tomorrow}`, { token: support.token })).json.total,
    ).toBe(0);
    const detail = await call(t, 'GET', `/api/admin/exchanges/${exchange._id}`, { token: support.token });
    expect(detail.json.exchange._id).toBe(exchange._id);
    expect(detail.json.exchange.providerData).not.toBeNull();
    const rechecked = await call(t, 'POST', `/api/admin/exchanges/${exchange._id}/recheck`, { token: support.token });
    expect(rechecked.status).toBe(200);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${exchange._id}`, { token: admin.token });
    expect(audit.json.entries[0]).toMatchObject({
      action: 'exchange.rechecked',
      targetType: 'exchange',
      before: { status: exchange.status },
    });

    const user = await registerUser(t);
    expect((await call(t, 'POST', `/api/admin/exchanges/${exchange._id}/recheck`, { token: user.token })).status).toBe(403);
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
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toEqual(['ticket.updated', 'ticket.answered']);
    expect(audit.json.entries[0]).toMatchObject({
      actor: { _id: support.userId, username: support.username },
      targetType: 'ticket',
      before: { status: 'pending', assignedTo: support.userId },
      after: { status: 'resolved', assignedTo: support.userId },
    });
    expect(audit.json.entries[1]).toMatchObject({
      before: { status: 'open', assignedTo: null, messageCount: 1 },
      after: { status: 'pending', assignedTo: support.userId, messageCount: 2, messageLength: 8 },
    });
    // What was written stays in the ticket, not in the audit log.
    expect(JSON.stringify(audit.json.entries)).not.toContain('Answered');
    expect(audit.json.entries[1].summary).toBe(`${support.username} (support) answered ticket ${id.slice(0, 8)} (8 characters)`);
  });

  it('records staff changes without an entry of their own through the generic hook, secrets redacted', async () => {
    const run = await call(t, 'POST', '/api/status/checks', {
      token: support.token,
      body: { note: 'after the fix', token: 'do-not-keep' },
    });
    expect(run.status).toBe(200);
    // The hook writes after the answer has gone out: wait for the entry rather than race it.
    const entries = async () =>
      (await call(t, 'GET', `/api/admin/audit?action=${encodeURIComponent('POST /api/status/checks')}`, { token: admin.token })).json
        .entries;
    await expect.poll(async () => (await entries()).length).toBeGreaterThan(0);
    const audit = { json: { entries: await entries() } };
    expect(audit.json.entries[0]).toMatchObject({
      actor: { _id: support.userId, username: support.username },
      targetType: 'status',
      after: { request: { note: { length: 13 }, token: '[redacted]' }, status: 200 },
    });
  });

  it('keeps the internal reason from the customer: their history and receipt show the note or a neutral line', async () => {
    const target = await registerUser(t);
    const reason = `Chargeback dispute ${Date.now()} (internal)`;
    const withNote = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 7.5, reason, customerNote: 'Compensation for the delayed deposit' },
    });
    expect(withNote.status).toBe(201);
    expect(withNote.json).toMatchObject({
      balanceBeforeCents: 0,
      balanceCents: 750,
      entry: { description: 'Compensation for the delayed deposit' },
    });
    const withoutNote = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: -2.5, reason },
    });
    expect(withoutNote.json).toMatchObject({
      balanceBeforeCents: 750,
      balanceCents: 500,
      entry: { description: 'Balance adjustment by support' },
    });

    const history = await call(t, 'GET', '/api/credits/history', { token: target.token });
    expect(history.json.entries.map((e: { description: string }) => e.description)).toEqual([
      'Balance adjustment by support',
      'Compensation for the delayed deposit',
    ]);
    expect(JSON.stringify(history.json)).not.toContain('Chargeback dispute');
    const receipt = await call(t, 'GET', `/api/credits/ledger/${history.json.entries[1]._id}/receipt`, { token: target.token });
    expect(receipt.status).toBe(200);
    expect(receipt.json.receipt.entry.description).toBe('Compensation for the delayed deposit');
    expect(JSON.stringify(receipt.json)).not.toContain('Chargeback dispute');

    // Staff see both, on the ledger and in the audit log.
    const ledger = await call(t, 'GET', `/api/admin/users/${target.userId}/ledger`, { token: support.token });
    expect(ledger.json.entries[1]).toMatchObject({ description: 'Compensation for the delayed deposit', internalReason: reason });
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${target.userId}&action=credits.adjusted`, { token: support.token });
    expect(audit.json.entries[1]).toMatchObject({ reason, after: { customerNote: 'Compensation for the delayed deposit' } });
  });

  it('applies an adjustment only at the balance the confirmation showed', async () => {
    const target = await registerUser(t);
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 10, reason: 'Opening funds' },
    });
    const before = await auditCount();
    // The confirmation showed 0.00, but the balance is 10.00 by now.
    const stale = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 5, reason: 'Goodwill', expectedBalanceCents: 0, idempotencyKey: `stale${Date.now()}` },
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ code: 'BALANCE_CHANGED', error: expect.stringContaining('10.00 credits') });
    expect(await auditCount()).toBe(before);
    expect((await call(t, 'GET', `/api/users/${target.userId}/credits`, { token: target.token })).json.credits).toBe(10);

    const key = `fresh${Date.now()}`;
    const body = { userId: target.userId, amount: 5, reason: 'Goodwill', expectedBalanceCents: 1000, idempotencyKey: key };
    const applied = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(applied.json).toMatchObject({ created: true, balanceBeforeCents: 1000, balanceCents: 1500 });
    // A retry of the same confirmed adjustment answers the first result, not a conflict.
    const retried = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body });
    expect(retried.status).toBe(201);
    expect(retried.json).toMatchObject({ created: false, balanceBeforeCents: 1000 });
    expect((await call(t, 'GET', `/api/users/${target.userId}/credits`, { token: target.token })).json.credits).toBe(15);
  });

  it('answers the audit log as sentences with names and the fields that changed', async () => {
    const target = await registerUser(t);
    const email = `${target.username}@example.com`;
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 10, reason: 'Opening funds' },
    });
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: target.userId, amount: 5, reason: 'Goodwill' },
    });
    await call(t, 'PUT', `/api/admin/users/${target.userId}/role`, {
      token: admin.token,
      body: { role: 'support', subroles: ['payments'] },
    });

    // Found by the target's email, which the entries do not store.
    const audit = await call(t, 'GET', `/api/admin/audit?search=${encodeURIComponent(email)}`, { token: support.token });
    expect(audit.status).toBe(200);
    const [role, adjusted] = audit.json.entries;
    expect(adjusted).toMatchObject({
      actor: { username: admin.username, role: 'admin' },
      targetLabel: email,
      summary: `${admin.username} (admin) adjusted the balance of ${email} by +5.00 credits: 10.00 → 15.00`,
      changes: [{ field: 'balance', before: '10.00 credits', after: '15.00 credits' }],
      reason: 'Goodwill',
    });
    expect(role).toMatchObject({
      summary: `${admin.username} (admin) changed the role of ${email} to support`,
      changes: [
        { field: 'role', before: 'user', after: 'support' },
        { field: 'subroles', before: 'none', after: 'payments' },
      ],
    });
    // No raw ids in what people read.
    for (const entry of audit.json.entries) expect(entry.summary).not.toContain(target.userId);
  });

  it('gives staff accounts (made by the operator command) no customer onboarding', async () => {
    const staff = await createUser(t.database.db, {
      username: uniqueName('ops'),
      email: `${uniqueName('ops')}@example.com`,
      passwordHash: 'x',
      role: 'support',
    });
    expect(staff.onboardingCompleted).toBe(true);
    const customer = await createUser(t.database.db, {
      username: uniqueName('cust'),
      email: `${uniqueName('cust')}@example.com`,
      passwordHash: 'x',
    });
    expect(customer.onboardingCompleted).toBe(false);
    await setRole(t.database.db, customer.id, 'admin');
    expect((await findUserById(t.database.db, customer.id))!.onboardingCompleted).toBe(true);
  });

  it('searches the audit log by reason, actor and action, newest first, paginated', async () => {
    const target = await registerUser(t);
    const marker = `fraud-check-${Date.now()}`;
    await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, {
      token: admin.token,
      body: { disabled: true, reason: `${marker} one` },
    });
    await call(t, 'PUT', `/api/admin/users/${target.userId}/disabled`, {
      token: admin.token,
      body: { disabled: false, reason: `${marker} two` },
    });
    const byReason = await call(t, 'GET', `/api/admin/audit?search=${marker}`, { token: support.token });
    expect(byReason.status).toBe(200);
    expect(byReason.json.entries.map((e: { reason: string }) => e.reason)).toEqual([`${marker} two`, `${marker} one`]);
    const paged = await call(t, 'GET', `/api/admin/audit?search=${marker}&pageSize=1&page=2`, { token: support.token });
    expect(paged.json).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.json.entries.map((e: { reason: string }) => e.reason)).toEqual([`${marker} one`]);
    const byActor = await call(t, 'GET', `/api/admin/audit?search=${admin.username}&action=user.enabled`, { token: support.token });
    expect(byActor.json.entries.some((e: { targetId: string }) => e.targetId === target.userId)).toBe(true);
    expect((await call(t, 'GET', `/api/admin/audit?search=${encodeURIComponent('%')}`, { token: support.token })).json.total).toBe(0);
  });

  it('answers 404 for an unknown user id', async () => {
    expect((await call(t, 'GET', '/api/admin/users/00000000-0000-0000-0000-000000000000', { token: support.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/admin/users/nope', { token: support.token })).status).toBe(404);
  });
});
