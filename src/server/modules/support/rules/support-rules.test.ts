import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { AUTO_CLOSE_JOB, RULE_EVENT_JOB, SupportRulesService, conditionsHold } from './support-rules.service.js';

/** Tags, automation rules and auto-close of the support desk (docs/decisions/0294). */

type Account = Awaited<ReturnType<typeof registerUser>>;
type Msg = { author: string; authorName: string; body: string; kind: string };

describe('rule conditions', () => {
  const ticket = { subject: 'Refund for order 12', priority: 'high', userId: 'u', tags: ['vip'] };
  it('all must hold', () => {
    expect(conditionsHold([], ticket)).toBe(true);
    expect(
      conditionsHold(
        [
          { type: 'subject_contains', text: 'REFUND' },
          { type: 'priority_in', priorities: ['high', 'urgent'] },
        ],
        ticket,
      ),
    ).toBe(true);
    expect(
      conditionsHold(
        [
          { type: 'subject_contains', text: 'refund' },
          { type: 'priority_in', priorities: ['low'] },
        ],
        ticket,
      ),
    ).toBe(false);
    expect(conditionsHold([{ type: 'requester_kind', kind: 'user' }], ticket)).toBe(true);
    expect(conditionsHold([{ type: 'requester_kind', kind: 'guest' }], ticket)).toBe(false);
    expect(
      conditionsHold(
        [
          { type: 'has_tag', tag: 'vip' },
          { type: 'lacks_tag', tag: 'spam' },
        ],
        ticket,
      ),
    ).toBe(true);
    expect(conditionsHold([{ type: 'lacks_tag', tag: 'vip' }], ticket)).toBe(false);
  });
});

describe.each(enginesFor('logic'))('support rules on %s', (engine) => {
  let t: TestApp;
  let support: Account;
  let admin: Account;
  let service: SupportRulesService;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    // The same service the cron sweeps run, driven here with a chosen clock.
    service = new SupportRulesService({ db: t.database.db, events: t.app.events });
  });
  afterAll(async () => {
    await t?.close();
    if (t) await rm(t.config.attachmentsDir, { recursive: true, force: true });
  });

  const q = async <T>(text: string, values: unknown[] = []) => (await t.database.pool.query(text, values)).rows as T[];

  /** Waits until every queued rule event has been handled. */
  async function settle(timeoutMs = 20_000) {
    await t.app.jobs.drain(); // every due job run now; the loop below then waits only for a retry
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await q<{ n: string }>(
        "SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')",
        [RULE_EVENT_JOB],
      );
      if (Number(row!.n) === 0) return;
      if (Date.now() > deadline) throw new Error('rule events still queued');
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  async function createRule(body: Record<string, unknown>) {
    const res = await call(t, 'POST', '/api/staff/support-rules', { token: admin.token, body });
    expect(res.status).toBe(201);
    return res.json.rule._id as string;
  }
  async function disableAll() {
    for (const r of (await call(t, 'GET', '/api/staff/support-rules', { token: admin.token })).json.rules as Array<{ _id: string }>) {
      expect(
        (await call(t, 'PUT', `/api/staff/support-rules/${r._id}/enabled`, { token: admin.token, body: { enabled: false } })).status,
      ).toBe(200);
    }
  }
  async function openTicket(token: string, subject: string, priority = 'normal') {
    const res = await call(t, 'POST', '/api/tickets', {
      token,
      body: { subject, category: 'payments', priority, message: 'Please help.' },
    });
    expect(res.status).toBe(201);
    return res.json.ticket._id as string;
  }
  const staffView = async (id: string) => (await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token })).json.ticket;
  const runsOf = (ruleId: string) =>
    q<{ event_key: string; actions: string[] }>('SELECT event_key, actions FROM support_rule_runs WHERE rule_id = $1', [ruleId]);

  describe('tags', () => {
    it('staff set them (trimmed, lower-case, once each); they show in the ticket and the queue, never to the requester; audited', async () => {
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Where is my swap');
      const res = await call(t, 'PUT', `/api/staff/tickets/${id}/tags`, {
        token: support.token,
        body: { tags: [' Refund ', 'refund', 'VIP'] },
      });
      expect(res.status).toBe(200);
      expect(res.json.tags).toEqual(['refund', 'vip']);
      expect((await staffView(id)).tags).toEqual(['refund', 'vip']);
      const queue = await call(t, 'GET', '/api/staff/tickets?search=swap', { token: support.token });
      expect(queue.json.tickets.find((x: { _id: string }) => x._id === id).tags).toEqual(['refund', 'vip']);
      const mine = await call(t, 'GET', `/api/tickets/${id}`, { token: user.token });
      expect(mine.json.ticket.tags).toBeUndefined();
      expect((await call(t, 'GET', '/api/tickets', { token: user.token })).json.tickets[0].tags).toBeUndefined();
      const [audit] = await q<{ actor_id: string; after: { tags: string[] } }>(
        "SELECT actor_id, after FROM audit_log WHERE action = 'ticket.tags_changed' AND target_id = $1",
        [id],
      );
      expect(audit).toMatchObject({ actor_id: support.userId, after: { tags: ['refund', 'vip'] } });
    });

    it('refuses bad tags, too many, and non-staff', async () => {
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Tag limits');
      for (const tags of [['has space'], ['<b>'], ['x'.repeat(33)], Array.from({ length: 11 }, (_, i) => `t${i}`), 'refund']) {
        expect((await call(t, 'PUT', `/api/staff/tickets/${id}/tags`, { token: support.token, body: { tags } })).status).toBe(400);
      }
      expect((await call(t, 'PUT', `/api/staff/tickets/${id}/tags`, { token: user.token, body: { tags: ['a'] } })).status).toBe(403);
      expect(
        (
          await call(t, 'PUT', '/api/staff/tickets/00000000-0000-4000-8000-000000000000/tags', {
            token: support.token,
            body: { tags: ['a'] },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('managing rules', () => {
    const valid = {
      name: 'Tag refunds',
      trigger: { type: 'ticket_created' },
      conditions: [{ type: 'subject_contains', text: 'zzz-never' }],
      actions: [{ type: 'add_tag', tag: 'x' }],
    };

    it('admins create, edit, disable and delete; support reads; users get nothing', async () => {
      const user = await registerUser(t);
      expect((await call(t, 'GET', '/api/staff/support-rules', { token: user.token })).status).toBe(403);
      expect((await call(t, 'POST', '/api/staff/support-rules', { token: support.token, body: valid })).status).toBe(403);
      const id = await createRule(valid);
      const listed = await call(t, 'GET', '/api/staff/support-rules', { token: support.token });
      expect(listed.json.rules.find((r: { _id: string }) => r._id === id)).toMatchObject({
        name: 'Tag refunds',
        enabled: true,
        trigger: { type: 'ticket_created' },
      });
      expect(
        (await call(t, 'PUT', `/api/staff/support-rules/${id}/enabled`, { token: support.token, body: { enabled: false } })).status,
      ).toBe(403);
      const off = await call(t, 'PUT', `/api/staff/support-rules/${id}/enabled`, { token: admin.token, body: { enabled: false } });
      expect(off.json.rule.enabled).toBe(false);
      const edited = await call(t, 'PUT', `/api/staff/support-rules/${id}`, {
        token: admin.token,
        body: { ...valid, name: 'Renamed', enabled: false },
      });
      expect(edited.json.rule).toMatchObject({ name: 'Renamed', enabled: false });
      expect((await call(t, 'DELETE', `/api/staff/support-rules/${id}`, { token: support.token })).status).toBe(403);
      expect((await call(t, 'DELETE', `/api/staff/support-rules/${id}`, { token: admin.token })).status).toBe(204);
      expect((await call(t, 'DELETE', `/api/staff/support-rules/${id}`, { token: admin.token })).status).toBe(404);
      const actions = (await q<{ action: string }>('SELECT action FROM audit_log WHERE target_id = $1 ORDER BY created_at', [id])).map(
        (r) => r.action,
      );
      expect(actions).toEqual(['support_rule.created', 'support_rule.disabled', 'support_rule.updated', 'support_rule.deleted']);
    });

    it('refuses bad input', async () => {
      const bad = [
        { ...valid, name: '' },
        { ...valid, actions: [] },
        { ...valid, trigger: { type: 'no_staff_reply' } },
        { ...valid, trigger: { type: 'no_staff_reply', hours: 0 } },
        { ...valid, trigger: { type: 'status_changed', to: 'gone' } },
        { ...valid, trigger: { type: 'whenever' } },
        { ...valid, conditions: [{ type: 'priority_in', priorities: [] }] },
        { ...valid, actions: [{ type: 'set_priority', priority: 'extreme' }] },
        { ...valid, actions: [{ type: 'add_tag', tag: 'two words' }] },
        { ...valid, actions: [{ type: 'delete_everything' }] },
      ];
      for (const body of bad)
        expect((await call(t, 'POST', '/api/staff/support-rules', { token: admin.token, body })).status, JSON.stringify(body)).toBe(400);
      const user = await registerUser(t);
      const notStaff = await call(t, 'POST', '/api/staff/support-rules', {
        token: admin.token,
        body: { ...valid, actions: [{ type: 'assign', assigneeId: user.userId }] },
      });
      expect(notStaff.status).toBe(422);
      const noReply = await call(t, 'POST', '/api/staff/support-rules', {
        token: admin.token,
        body: { ...valid, actions: [{ type: 'canned_reply', cannedReplyId: '00000000-0000-4000-8000-000000000000' }] },
      });
      expect(noReply).toMatchObject({ status: 422, json: { code: 'CANNED_REPLY_NOT_FOUND' } });
    });
  });

  describe('triggers and actions', () => {
    it('ticket created: subject contains "refund" → tag, priority high, internal note; other subjects untouched; audited and logged', async () => {
      await disableAll();
      const ruleId = await createRule({
        name: 'Refunds',
        trigger: { type: 'ticket_created' },
        conditions: [{ type: 'subject_contains', text: 'refund' }],
        actions: [
          { type: 'add_tag', tag: 'refund' },
          { type: 'set_priority', priority: 'high' },
          { type: 'internal_note', body: 'Check the order first.' },
        ],
      });
      const user = await registerUser(t);
      const other = await openTicket(user.token, 'Cannot log in');
      const id = await openTicket(user.token, 'I want a Refund please');
      await settle();
      const ticket = await staffView(id);
      expect(ticket).toMatchObject({ tags: ['refund'], priority: 'high', status: 'open' });
      expect((ticket.messages as Msg[]).find((m) => m.kind === 'internal')).toMatchObject({
        body: 'Check the order first.',
        authorName: 'Olympus Support',
      });
      expect((await staffView(other)).tags).toEqual([]);
      // The requester sees no note and no tag.
      const mine = (await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).json.ticket;
      expect((mine.messages as Msg[]).some((m) => m.kind === 'internal')).toBe(false);
      const [audit] = await q<{ actor_name: string; after: { rule: { id: string }; actions: string[] } }>(
        "SELECT actor_name, after FROM audit_log WHERE action = 'support_rule.ran' AND target_id = $1",
        [id],
      );
      expect(audit).toMatchObject({
        actor_name: 'automation',
        after: { rule: { id: ruleId }, actions: ['tag refund', 'priority high', 'internal note'] },
      });
      const log = await call(t, 'GET', '/api/staff/support-rules/runs', { token: support.token });
      expect(log.json.runs[0]).toMatchObject({
        ruleId,
        ruleName: 'Refunds',
        ticketId: id,
        event: 'created',
        actions: ['tag refund', 'priority high', 'internal note'],
      });
    });

    it('a disabled rule does nothing', async () => {
      await disableAll();
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Another refund question');
      await settle();
      expect(await staffView(id)).toMatchObject({ tags: [], priority: 'normal' });
    });

    it('message from the requester (guest, tagged): assign and canned reply the guest sees, once per message', async () => {
      await disableAll();
      const canned = await call(t, 'POST', '/api/staff/ticket-replies', {
        token: support.token,
        body: { title: 'Got it', body: 'Thanks, we are looking at it.' },
      });
      expect(canned.status).toBe(201);
      await createRule({
        name: 'Guests with vip tag',
        trigger: { type: 'requester_message' },
        conditions: [
          { type: 'requester_kind', kind: 'guest' },
          { type: 'has_tag', tag: 'vip' },
        ],
        actions: [
          { type: 'assign', assigneeId: support.userId },
          { type: 'canned_reply', cannedReplyId: canned.json.reply._id },
        ],
      });
      const guest = await startGuest(t);
      const auth = { token: guest.token, headers: guestHeaders(guest) };
      const created = await call(t, 'POST', '/api/tickets/guest', {
        ...auth,
        body: { subject: 'Guest question', category: 'general', message: 'Hello' },
      });
      const id = created.json.ticket._id as string;
      await call(t, 'PUT', `/api/staff/tickets/${id}/tags`, { token: support.token, body: { tags: ['vip'] } });
      expect((await call(t, 'POST', `/api/tickets/guest/${id}/messages`, { ...auth, body: { message: 'Any news?' } })).status).toBe(201);
      await settle();
      const seen = (await call(t, 'GET', `/api/tickets/guest/${id}`, auth)).json.ticket;
      expect(seen.status).toBe('pending');
      expect((seen.messages as Msg[]).filter((m) => m.body === 'Thanks, we are looking at it.')).toEqual([
        expect.objectContaining({ author: 'staff', kind: 'reply', authorName: 'Olympus Support' }),
      ]);
      expect((await staffView(id)).assignedTo).toMatchObject({ _id: support.userId });
      // A user's ticket does not match the guest condition.
      const user = await registerUser(t);
      const userTicket = await openTicket(user.token, 'User question');
      await call(t, 'PUT', `/api/staff/tickets/${userTicket}/tags`, { token: support.token, body: { tags: ['vip'] } });
      await call(t, 'POST', `/api/tickets/${userTicket}/messages`, { token: user.token, body: { message: 'Hello?' } });
      await settle();
      expect((await staffView(userTicket)).assignedTo).toBeNull();
    });

    it('status changed (to resolved, lacking a tag): close', async () => {
      await disableAll();
      await createRule({
        name: 'Close resolved',
        trigger: { type: 'status_changed', to: 'resolved' },
        conditions: [{ type: 'lacks_tag', tag: 'keep-open' }],
        actions: [{ type: 'close' }],
      });
      const user = await registerUser(t);
      const a = await openTicket(user.token, 'Close me');
      const b = await openTicket(user.token, 'Keep me');
      await call(t, 'PUT', `/api/staff/tickets/${b}/tags`, { token: support.token, body: { tags: ['keep-open'] } });
      await call(t, 'PUT', `/api/staff/tickets/${a}`, { token: support.token, body: { status: 'pending' } });
      await settle();
      expect((await staffView(a)).status).toBe('pending');
      for (const id of [a, b]) await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } });
      await settle();
      expect((await staffView(a)).status).toBe('closed');
      expect((await staffView(b)).status).toBe('resolved');
    });

    it('never loops: A (to pending → resolved) and B (to resolved → pending) each run once, and a replayed event runs nothing', async () => {
      await disableAll();
      const ruleA = await createRule({
        name: 'A',
        trigger: { type: 'status_changed', to: 'pending' },
        actions: [{ type: 'set_status', status: 'resolved' }],
      });
      const ruleB = await createRule({
        name: 'B',
        trigger: { type: 'status_changed', to: 'resolved' },
        actions: [{ type: 'set_status', status: 'pending' }],
      });
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Ping pong');
      await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'pending' } });
      await settle();
      // A moved it to resolved; that change was the rule's, so B did not answer it.
      expect((await staffView(id)).status).toBe('resolved');
      expect(await runsOf(ruleA)).toHaveLength(1);
      expect(await runsOf(ruleB)).toHaveLength(0);
      // Staff reopen it and resolve it themselves: now B answers, and A does not answer B's change.
      await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'open' } });
      await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } });
      await settle();
      expect((await staffView(id)).status).toBe('pending');
      const [runA] = await runsOf(ruleA);
      expect(await runsOf(ruleB)).toHaveLength(1);
      // The same event delivered again (a retry, a second instance): nothing more runs.
      await t.app.jobs.send(RULE_EVENT_JOB, {
        kind: 'status_changed',
        ticketId: id,
        key: runA!.event_key,
        origin: 'staff',
        status: 'pending',
      });
      await settle();
      const second = new SupportRulesService({ db: t.database.db, events: t.app.events });
      const both = await Promise.all(
        [service, second].map((s) =>
          s.runEvent({ kind: 'status_changed', ticketId: id, key: runA!.event_key, origin: 'staff', status: 'pending' }),
        ),
      );
      expect(both).toEqual([0, 0]);
      expect(await runsOf(ruleA)).toHaveLength(1);
      expect(await runsOf(ruleB)).toHaveLength(1);
      expect((await staffView(id)).status).toBe('pending');
      // An event a rule made is dropped outright.
      expect(
        await service.runEvent({ kind: 'status_changed', ticketId: id, key: 'status:by-rule', origin: 'rule', status: 'pending' }),
      ).toBe(0);
    });

    it('two instances handling one new event run the rule once', async () => {
      await disableAll();
      const ruleId = await createRule({
        name: 'Once',
        trigger: { type: 'status_changed' },
        actions: [
          { type: 'add_tag', tag: 'seen' },
          { type: 'internal_note', body: 'Seen once.' },
        ],
      });
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Twice');
      const second = new SupportRulesService({ db: t.database.db, events: t.app.events });
      const event = {
        kind: 'status_changed' as const,
        ticketId: id,
        key: `status:${id}:manual`,
        origin: 'staff' as const,
        status: 'pending',
      };
      const ran = await Promise.all([service.runEvent(event), second.runEvent(event)]);
      expect(ran.sort()).toEqual([0, 1]);
      expect(await runsOf(ruleId)).toHaveLength(1);
      expect(((await staffView(id)).messages as Msg[]).filter((m) => m.body === 'Seen once.')).toHaveLength(1);
    });

    it('no staff reply for 4 business hours: counted in business time, once per requester message', async () => {
      await disableAll();
      await q("UPDATE support_calendar SET time_zone = 'UTC', days = '{1,2,3,4,5}', start_minute = 540, end_minute = 1020 WHERE id = 1");
      const ruleId = await createRule({
        name: 'Escalate',
        trigger: { type: 'no_staff_reply', hours: 4 },
        conditions: [{ type: 'priority_in', priorities: ['normal', 'high'] }],
        actions: [
          { type: 'set_priority', priority: 'urgent' },
          { type: 'add_tag', tag: 'waiting' },
        ],
      });
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Slow answer');
      const answered = await openTicket(user.token, 'Answered quickly');
      await call(t, 'POST', `/api/staff/tickets/${answered}/messages`, { token: support.token, body: { message: 'On it.' } });
      // Friday 2026-11-20 15:00 UTC: two business hours left that day, the next two on Monday morning.
      const friday = '2026-11-20T15:00:00Z';
      // Staff answered one of them a minute after the requester wrote.
      await q(
        "UPDATE ticket_messages SET created_at = $2::timestamptz + CASE WHEN author = 'staff' THEN interval '1 minute' ELSE interval '0' END WHERE ticket_id = ANY($1::uuid[])",
        [[id, answered], friday],
      );
      await q('UPDATE tickets SET last_message_at = $2, created_at = $2 WHERE id = ANY($1::uuid[])', [[id, answered], friday]);
      // Saturday noon: 26 clock hours, 2 business hours: not due.
      expect(await service.sweepNoReply(new Date('2026-11-21T12:00:00Z'))).toBe(0);
      // Monday 10:59: 3 h 59 min of business time.
      expect(await service.sweepNoReply(new Date('2026-11-23T10:59:00Z'))).toBe(0);
      expect(await service.sweepNoReply(new Date('2026-11-23T11:00:00Z'))).toBe(1);
      expect(await staffView(id)).toMatchObject({ priority: 'urgent', tags: ['waiting'] });
      // The next sweep finds it done; the answered ticket never fires.
      expect(await service.sweepNoReply(new Date('2026-11-23T12:00:00Z'))).toBe(0);
      expect((await staffView(answered)).priority).toBe('normal');
      // A new requester message starts a new wait and fires once more when that is over (staff set
      // the priority back to high, so the rule's condition holds again).
      await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'Hello?' } });
      await settle();
      await q("UPDATE ticket_messages SET created_at = '2026-11-23T12:00:00Z' WHERE ticket_id = $1 AND body = 'Hello?'", [id]);
      await q("UPDATE tickets SET last_message_at = '2026-11-23T12:00:00Z', priority = 'high' WHERE id = $1", [id]);
      expect(await service.sweepNoReply(new Date('2026-11-23T15:59:00Z'))).toBe(0);
      expect(await service.sweepNoReply(new Date('2026-11-23T16:00:00Z'))).toBe(1);
      const runs = await runsOf(ruleId);
      expect(runs).toHaveLength(2);
      expect(new Set(runs.map((r) => r.event_key)).size).toBe(2);
    });
  });

  describe('auto-close', () => {
    const runAutoClose = async () => {
      await t.app.jobs.send(AUTO_CLOSE_JOB, {});
      await t.app.jobs.drain(); // every due job run now; the loop below then waits only for a retry
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [row] = await q<{ n: string }>(
          "SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')",
          [AUTO_CLOSE_JOB],
        );
        if (Number(row!.n) === 0) return;
        if (Date.now() > deadline) throw new Error('auto-close still queued');
        await new Promise((r) => setTimeout(r, 150));
      }
    };

    it('the setting: staff read it, admins set it (0 to 365)', async () => {
      expect((await call(t, 'GET', '/api/staff/support-settings/auto-close', { token: support.token })).json).toEqual({ autoCloseDays: 7 });
      expect(
        (await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: support.token, body: { autoCloseDays: 3 } })).status,
      ).toBe(403);
      for (const autoCloseDays of [-1, 366, 2.5, '3']) {
        expect(
          (await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: admin.token, body: { autoCloseDays } })).status,
        ).toBe(400);
      }
      expect(
        (await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: admin.token, body: { autoCloseDays: 3 } })).json,
      ).toEqual({ autoCloseDays: 3 });
      expect((await call(t, 'GET', '/api/staff/support-settings/auto-close', { token: support.token })).json).toEqual({ autoCloseDays: 3 });
      expect(
        (await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: admin.token, body: { autoCloseDays: 7 } })).status,
      ).toBe(200);
    });

    it('closes tickets resolved N days ago without an answer, once, and asks for a rating (notice and mail; guests too)', async () => {
      await disableAll();
      const user = await registerUser(t);
      const guest = await startGuest(t);
      const guestAuth = { token: guest.token, headers: guestHeaders(guest) };
      const old = await openTicket(user.token, 'Old resolved');
      const recent = await openTicket(user.token, 'Recently resolved');
      const answered = await openTicket(user.token, 'Answered after resolve');
      const guestTicket = (
        await call(t, 'POST', '/api/tickets/guest', {
          ...guestAuth,
          body: { subject: 'Guest resolved', category: 'general', message: 'Hi' },
        })
      ).json.ticket._id as string;
      for (const id of [old, recent, answered, guestTicket]) {
        expect((await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } })).status).toBe(200);
      }
      // The requester answers a resolved ticket: it opens again, and auto-close leaves it alone.
      expect(
        (await call(t, 'POST', `/api/tickets/${answered}/messages`, { token: user.token, body: { message: 'Not fixed yet' } })).status,
      ).toBe(201);
      await q("UPDATE tickets SET status = 'resolved' WHERE id = $1", [answered]);
      await q("UPDATE tickets SET closed_at = now() - interval '8 days' WHERE id = ANY($1::uuid[])", [[old, guestTicket, answered]]);
      await q(
        "UPDATE ticket_messages SET created_at = now() - interval '9 days' WHERE ticket_id = ANY($1::uuid[]) AND body <> 'Not fixed yet'",
        [[old, guestTicket, answered]],
      );
      await q("UPDATE tickets SET closed_at = now() - interval '6 days' WHERE id = $1", [recent]);

      await runAutoClose();
      expect((await staffView(old)).status).toBe('closed');
      expect((await staffView(guestTicket)).status).toBe('closed');
      expect((await staffView(recent)).status).toBe('resolved');
      expect((await staffView(answered)).status).toBe('resolved');
      const mine = (await call(t, 'GET', `/api/tickets/${old}`, { token: user.token })).json.ticket;
      expect((mine.messages as Msg[]).at(-1)).toMatchObject({ kind: 'event', body: expect.stringContaining('Closed automatically') });

      const notices = (await call(t, 'GET', '/api/notifications', { token: user.token })).json.notifications as Array<{
        event: string;
        title: string;
        link: string;
      }>;
      const requests = notices.filter((n) => n.event === 'ticket.rating_request');
      expect(requests).toHaveLength(1);
      expect(requests[0]!.link).toContain(old);
      await waitForMail(t, `${user.username}@example.com`, /How did we do on ticket/);
      const guestNotices = (await call(t, 'GET', '/api/notifications', guestAuth)).json.notifications as Array<{ event: string }>;
      expect(guestNotices.filter((n) => n.event === 'ticket.rating_request')).toHaveLength(1);
      // The guest can now rate the closed ticket.
      expect((await call(t, 'POST', `/api/tickets/guest/${guestTicket}/rating`, { ...guestAuth, body: { score: 5 } })).status).toBe(200);

      // Once per ticket: reopened, resolved and old again, it is not closed a second time.
      await call(t, 'PUT', `/api/staff/tickets/${old}`, { token: support.token, body: { status: 'resolved' } });
      await q("UPDATE tickets SET closed_at = now() - interval '30 days' WHERE id = $1", [old]);
      await runAutoClose();
      expect((await staffView(old)).status).toBe('resolved');
      const again = (await call(t, 'GET', '/api/notifications', { token: user.token })).json.notifications as Array<{ event: string }>;
      expect(again.filter((n) => n.event === 'ticket.rating_request')).toHaveLength(1);
      const [audit] = await q<{ n: string }>("SELECT count(*) AS n FROM audit_log WHERE action = 'ticket.auto_closed' AND target_id = $1", [
        old,
      ]);
      expect(Number(audit!.n)).toBe(1);
    });

    it('0 days means never', async () => {
      const user = await registerUser(t);
      const id = await openTicket(user.token, 'Never close');
      await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } });
      await q("UPDATE tickets SET closed_at = now() - interval '300 days' WHERE id = $1", [id]);
      await q("UPDATE ticket_messages SET created_at = now() - interval '301 days' WHERE ticket_id = $1", [id]);
      await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: admin.token, body: { autoCloseDays: 0 } });
      expect(await service.autoClose()).toBe(0);
      expect((await staffView(id)).status).toBe('resolved');
      await call(t, 'PUT', '/api/staff/support-settings/auto-close', { token: admin.token, body: { autoCloseDays: 7 } });
      expect(await service.autoClose()).toBe(1);
    });
  });
});
