import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/** Support desk (decision 0190): internal notes, canned replies, assignment, first response, merge, rating. */

const NEW_TICKET = { subject: 'Deposit not showing', category: 'payments', priority: 'high', message: 'I sent BTC an hour ago.' };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SECRET = 'Internal: user looks like a reseller, check the payment provider first';

type Msg = { author: string; body: string; kind: string };

describe.each(enginesFor('logic'))('support desk on %s', (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string; username: string };
  let admin: { token: string; userId: string; username: string };
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    if (t) await rm(t.config.attachmentsDir, { recursive: true, force: true });
  });

  async function userTicket(token: string, subject = NEW_TICKET.subject): Promise<string> {
    const res = await call(t, 'POST', '/api/tickets', { token, body: { ...NEW_TICKET, subject } });
    expect(res.status).toBe(201);
    return res.json.ticket._id as string;
  }

  describe('internal notes', () => {
    it('are never returned by any requester endpoint (user and guest), and do not count as a response', async () => {
      const user = await registerUser(t);
      const id = await userTicket(user.token);
      const note = await call(t, 'POST', `/api/staff/tickets/${id}/messages`, {
        token: support.token,
        body: { message: SECRET, internal: true },
      });
      expect(note.status).toBe(201);
      expect(note.json.ticket.messages.at(-1)).toMatchObject({ kind: 'internal', body: SECRET, author: 'staff' });
      // Nothing the requester sees moved: status, count, first response, assignment.
      expect(note.json.ticket).toMatchObject({ status: 'open', messageCount: 1, firstResponseAt: null, assignedTo: null });

      const bodies: string[] = [];
      const leaks = (res: { status: number; json: unknown }) => {
        bodies.push(JSON.stringify(res.json));
        return res;
      };
      expect(leaks(await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).status).toBe(200);
      expect(leaks(await call(t, 'GET', '/api/tickets', { token: user.token })).status).toBe(200);
      expect(
        leaks(await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'Any news?' } })).status,
      ).toBe(201);
      const upload = await fetch(`${t.url}/api/tickets/${id}/attachments?filename=shot.png`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'image/png' },
        body: new Uint8Array(PNG),
      });
      expect(leaks({ status: upload.status, json: await upload.json() }).status).toBe(201);
      expect(leaks(await call(t, 'PUT', `/api/tickets/${id}`, { token: user.token, body: { status: 'closed' } })).status).toBe(200);
      expect(leaks(await call(t, 'POST', `/api/tickets/${id}/rating`, { token: user.token, body: { score: 4 } })).status).toBe(200);
      for (const body of bodies) {
        expect(body).not.toContain(SECRET);
        expect(body).not.toContain('"internal"');
      }
      const seen = await call(t, 'GET', `/api/tickets/${id}`, { token: user.token });
      expect(seen.json.ticket.messages.map((m: Msg) => m.body)).toEqual([NEW_TICKET.message, 'Any news?', 'Attached shot.png']);
      // Staff still see it, in order.
      const staffView = await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token });
      expect(staffView.json.ticket.messages.map((m: Msg) => m.kind)).toEqual(['reply', 'internal', 'reply', 'reply']);
    });

    it('stay hidden from a guest requester too', async () => {
      const guest = await startGuest(t);
      const opts = { token: guest.token, headers: guestHeaders(guest) };
      const created = await call(t, 'POST', '/api/tickets/guest', { ...opts, body: NEW_TICKET });
      const id = created.json.ticket._id as string;
      await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: SECRET, internal: true } });
      const responses = [
        await call(t, 'GET', `/api/tickets/guest/${id}`, opts),
        await call(t, 'GET', '/api/tickets/guest', opts),
        await call(t, 'POST', `/api/tickets/guest/${id}/messages`, { ...opts, body: { message: 'Hello?' } }),
        await call(t, 'PUT', `/api/tickets/guest/${id}`, { ...opts, body: { status: 'closed' } }),
        await call(t, 'POST', `/api/tickets/guest/${id}/rating`, { ...opts, body: { score: 2, comment: 'slow' } }),
      ];
      for (const res of responses) {
        expect(res.status).toBeLessThan(300);
        expect(JSON.stringify(res.json)).not.toContain(SECRET);
      }
    });

    it('send no mail (a visible answer does), and are audit-logged', async () => {
      const user = await registerUser(t);
      const id = await userTicket(user.token);
      const mails = async () =>
        (await t.database.pool.query('SELECT count(*)::int AS n FROM mail_messages WHERE user_id = $1', [user.userId])).rows[0].n as number;
      const before = await mails();
      await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: SECRET, internal: true } });
      expect(await mails()).toBe(before);
      await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'A visible answer' } });
      expect(await mails()).toBe(before + 1);
      const audit = await t.database.pool.query('SELECT action FROM audit_log WHERE target_id = $1', [id]);
      expect(audit.rows.map((r: { action: string }) => r.action)).toContain('ticket.note_added');
    });
  });

  describe('first response', () => {
    it('starts with the ticket and stops at the first visible staff answer', async () => {
      const user = await registerUser(t);
      const id = await userTicket(user.token);
      await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'note', internal: true } });
      expect((await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token })).json.ticket.firstResponseAt).toBeNull();
      const answered = await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'Looking.' } });
      const first = answered.json.ticket.firstResponseAt as string;
      expect(Date.parse(first)).toBeGreaterThanOrEqual(Date.parse(answered.json.ticket.createdAt));
      await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'Found it.' } });
      const later = await call(t, 'GET', `/api/staff/tickets?search=${user.username}`, { token: support.token });
      expect(later.json.tickets[0].firstResponseAt).toBe(first);
    });
  });

  describe('assignment', () => {
    it('assigns to a named staff member, lists staff, filters "assigned to me", and refuses non-staff', async () => {
      const user = await registerUser(t);
      const id = await userTicket(user.token);
      const members = await call(t, 'GET', '/api/staff/tickets/staff-members', { token: support.token });
      expect(members.json.staff.map((s: { _id: string }) => s._id)).toEqual(expect.arrayContaining([support.userId, admin.userId]));
      expect(members.json.staff.map((s: { _id: string }) => s._id)).not.toContain(user.userId);

      const assigned = await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: admin.token, body: { assigneeId: support.userId } });
      expect(assigned.json.ticket.assignedTo).toEqual({ _id: support.userId, username: support.username });
      const mine = await call(t, 'GET', '/api/staff/tickets?assigned=me&pageSize=100', { token: support.token });
      expect(mine.json.tickets.map((x: { _id: string }) => x._id)).toContain(id);
      const adminMine = await call(t, 'GET', '/api/staff/tickets?assigned=me&pageSize=100', { token: admin.token });
      expect(adminMine.json.tickets.map((x: { _id: string }) => x._id)).not.toContain(id);

      const refused = await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: admin.token, body: { assigneeId: user.userId } });
      expect(refused.status).toBe(422);
      expect(refused.json.code).toBe('NOT_STAFF');
      const unassigned = await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: admin.token, body: { assigneeId: null } });
      expect(unassigned.json.ticket.assignedTo).toBeNull();
      expect((await call(t, 'GET', '/api/staff/tickets/staff-members', { token: user.token })).status).toBe(403);
    });
  });

  describe('canned replies', () => {
    it('lets staff add, change, list and delete them, audited; users cannot', async () => {
      const created = await call(t, 'POST', '/api/staff/ticket-replies', {
        token: support.token,
        body: { title: 'Deposit delay', body: 'Deposits need 2 confirmations.\nPlease wait.' },
      });
      expect(created.status).toBe(201);
      const id = created.json.reply._id as string;
      const changed = await call(t, 'PUT', `/api/staff/ticket-replies/${id}`, {
        token: support.token,
        body: { title: 'Deposit delay', body: 'Deposits need 3 confirmations.' },
      });
      expect(changed.json.reply.body).toBe('Deposits need 3 confirmations.');
      const list = await call(t, 'GET', '/api/staff/ticket-replies', { token: admin.token });
      expect(list.json.replies).toEqual(expect.arrayContaining([expect.objectContaining({ _id: id, title: 'Deposit delay' })]));
      const user = await registerUser(t);
      expect((await call(t, 'GET', '/api/staff/ticket-replies', { token: user.token })).status).toBe(403);
      expect((await call(t, 'POST', '/api/staff/ticket-replies', { token: user.token, body: { title: 'x', body: 'y' } })).status).toBe(403);
      expect((await call(t, 'POST', '/api/staff/ticket-replies', { token: support.token, body: { title: '', body: 'y' } })).status).toBe(
        400,
      );
      expect((await call(t, 'DELETE', `/api/staff/ticket-replies/${id}`, { token: support.token })).status).toBe(204);
      expect((await call(t, 'DELETE', `/api/staff/ticket-replies/${id}`, { token: support.token })).status).toBe(404);
      const audit = await t.database.pool.query('SELECT action FROM audit_log WHERE target_id = $1 ORDER BY created_at', [id]);
      expect(audit.rows.map((r: { action: string }) => r.action)).toEqual([
        'canned_reply.created',
        'canned_reply.updated',
        'canned_reply.deleted',
      ]);
    });
  });

  describe('merging', () => {
    it("moves the duplicate's messages into the target in time order, closes it with a notice the user sees, and audits it", async () => {
      const user = await registerUser(t);
      const a = await userTicket(user.token, 'First report');
      const b = await userTicket(user.token, 'Second report');
      await call(t, 'POST', `/api/tickets/${a}/messages`, { token: user.token, body: { message: 'A later' } });
      await call(t, 'POST', `/api/tickets/${b}/messages`, { token: user.token, body: { message: 'B later' } });
      await call(t, 'POST', `/api/staff/tickets/${b}/messages`, { token: support.token, body: { message: SECRET, internal: true } });
      const numbers = await call(t, 'GET', '/api/tickets', { token: user.token });
      const numberOf = (id: string) => numbers.json.tickets.find((x: { _id: string }) => x._id === id).number as number;

      const merged = await call(t, 'POST', `/api/staff/tickets/${a}/merge`, { token: support.token, body: { sourceId: b } });
      expect(merged.status).toBe(200);
      const thread = merged.json.ticket.messages as Array<Msg & { createdAt: string }>;
      expect(thread.map((m) => m.body)).toEqual([
        NEW_TICKET.message,
        NEW_TICKET.message,
        'A later',
        'B later',
        SECRET,
        `Ticket #${numberOf(b)} was merged into this ticket.`,
      ]);
      const times = thread.map((m) => Date.parse(m.createdAt));
      expect([...times].sort((x, y) => x - y)).toEqual(times);

      const userA = await call(t, 'GET', `/api/tickets/${a}`, { token: user.token });
      expect(userA.json.ticket.messages.map((m: Msg) => m.body)).not.toContain(SECRET);
      expect(userA.json.ticket.messageCount).toBe(userA.json.ticket.messages.length);
      const userB = await call(t, 'GET', `/api/tickets/${b}`, { token: user.token });
      expect(userB.json.ticket).toMatchObject({ status: 'closed', mergedInto: { _id: a, number: numberOf(a) } });
      expect(userB.json.ticket.messages.map((m: Msg) => [m.kind, m.body])).toEqual([['event', `Merged into #${numberOf(a)}.`]]);
      // The duplicate cannot be reopened, answered or merged again.
      expect((await call(t, 'PUT', `/api/tickets/${b}`, { token: user.token, body: { status: 'open' } })).json.code).toBe('TICKET_MERGED');
      expect((await call(t, 'POST', `/api/tickets/${b}/messages`, { token: user.token, body: { message: 'hi' } })).status).toBe(422);
      expect((await call(t, 'POST', `/api/staff/tickets/${a}/merge`, { token: support.token, body: { sourceId: b } })).json.code).toBe(
        'TICKET_MERGED',
      );

      const audit = await t.database.pool.query("SELECT action, after FROM audit_log WHERE target_id = $1 AND action = 'ticket.merged'", [
        a,
      ]);
      expect(audit.rows).toHaveLength(1);
      expect(audit.rows[0].after.source.id).toBe(b);
    });

    it("refuses another requester's ticket, the same ticket, and an unknown one, changing nothing", async () => {
      const one = await registerUser(t);
      const two = await registerUser(t);
      const a = await userTicket(one.token);
      const b = await userTicket(two.token);
      const other = await call(t, 'POST', `/api/staff/tickets/${a}/merge`, { token: support.token, body: { sourceId: b } });
      expect(other.status).toBe(422);
      expect(other.json.code).toBe('MERGE_OTHER_OWNER');
      expect((await call(t, 'POST', `/api/staff/tickets/${a}/merge`, { token: support.token, body: { sourceId: a } })).json.code).toBe(
        'MERGE_SAME_TICKET',
      );
      expect(
        (
          await call(t, 'POST', `/api/staff/tickets/${a}/merge`, {
            token: support.token,
            body: { sourceId: '00000000-0000-4000-8000-000000000000' },
          })
        ).status,
      ).toBe(404);
      expect((await call(t, 'GET', `/api/tickets/${b}`, { token: two.token })).json.ticket).toMatchObject({
        status: 'open',
        mergedInto: null,
        messageCount: 1,
      });
      expect((await call(t, 'POST', `/api/staff/tickets/${a}/merge`, { token: one.token, body: { sourceId: b } })).status).toBe(403);
    });
  });

  describe('rating', () => {
    it('is given once after close, by the owner only, and staff see the average overall and per assignee', async () => {
      const user = await registerUser(t);
      const statsBefore = (await call(t, 'GET', '/api/staff/tickets/ratings', { token: support.token })).json;
      const a = await userTicket(user.token);
      const b = await userTicket(user.token);
      await call(t, 'PUT', `/api/staff/tickets/${a}`, { token: admin.token, body: { assigneeId: admin.userId } });
      await call(t, 'PUT', `/api/staff/tickets/${b}`, { token: admin.token, body: { assigneeId: admin.userId } });

      const early = await call(t, 'POST', `/api/tickets/${a}/rating`, { token: user.token, body: { score: 5 } });
      expect(early.status).toBe(422);
      expect(early.json.code).toBe('TICKET_NOT_CLOSED');

      await call(t, 'PUT', `/api/tickets/${a}`, { token: user.token, body: { status: 'closed' } });
      await call(t, 'PUT', `/api/staff/tickets/${b}`, { token: admin.token, body: { status: 'resolved' } });
      const stranger = await registerUser(t);
      expect((await call(t, 'POST', `/api/tickets/${a}/rating`, { token: stranger.token, body: { score: 1 } })).status).toBe(404);
      expect((await call(t, 'POST', `/api/tickets/${a}/rating`, { token: user.token, body: { score: 6 } })).status).toBe(400);
      expect((await call(t, 'POST', `/api/tickets/${a}/rating`, { token: user.token, body: { score: 2.5 } })).status).toBe(400);

      const rated = await call(t, 'POST', `/api/tickets/${a}/rating`, {
        token: user.token,
        body: { score: 5, comment: 'Quick and clear' },
      });
      expect(rated.status).toBe(200);
      expect(rated.json.ticket.rating).toMatchObject({ score: 5, comment: 'Quick and clear' });
      const again = await call(t, 'POST', `/api/tickets/${a}/rating`, { token: user.token, body: { score: 1 } });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('TICKET_ALREADY_RATED');
      expect((await call(t, 'GET', `/api/tickets/${a}`, { token: user.token })).json.ticket.rating.score).toBe(5);
      expect((await call(t, 'POST', `/api/tickets/${b}/rating`, { token: user.token, body: { score: 2 } })).status).toBe(200);

      const stats = await call(t, 'GET', '/api/staff/tickets/ratings', { token: support.token });
      expect(stats.json.overall.count).toBe(statsBefore.overall.count + 2);
      const adminRow = stats.json.byStaff.find((r: { _id: string }) => r._id === admin.userId);
      expect(adminRow).toEqual({ _id: admin.userId, username: admin.username, average: 3.5, count: 2 });
      expect((await call(t, 'GET', '/api/staff/tickets/ratings', { token: user.token })).status).toBe(403);
    });
  });
});
