import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestCookie, guestHeaders, registerUser, startGuest, TEST_PASSWORD } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

const NEW_TICKET = { subject: 'Deposit not showing', category: 'payments', priority: 'high', message: 'I sent BTC an hour ago.' };

describe.each(enginesFor('logic'))('support tickets on %s', (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    support = staff;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function ticketCount(): Promise<number> {
    const res = await t.database.pool.query('SELECT count(*)::int AS n FROM ticket_messages');
    return res.rows[0].n as number;
  }

  it('lets a guest open a ticket, staff answer it, and the guest read the answer', async () => {
    const guest = await startGuest(t);
    const created = await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET });
    expect(created.status).toBe(201);
    expect(created.json.ticket).toMatchObject({
      subject: 'Deposit not showing',
      category: 'payments',
      priority: 'high',
      status: 'open',
      requester: { type: 'guest', name: 'Guest' },
      messageCount: 1,
    });
    const id = created.json.ticket._id as string;

    const answered = await call(t, 'POST', `/api/staff/tickets/${id}/messages`, {
      token: support.token,
      body: { message: 'We are on it.' },
    });
    expect(answered.status).toBe(201);
    expect(answered.json.ticket.status).toBe('pending');
    expect(answered.json.ticket.assignedTo._id).toBe(support.userId);

    const seen = await call(t, 'GET', `/api/tickets/guest/${id}`, { token: guest.token, headers: guestHeaders(guest) });
    expect(seen.json.ticket.messages.map((m: { author: string; body: string }) => [m.author, m.body])).toEqual([
      ['requester', 'I sent BTC an hour ago.'],
      ['staff', 'We are on it.'],
    ]);

    const reply = await call(t, 'POST', `/api/tickets/guest/${id}/messages`, {
      token: guest.token,
      headers: guestHeaders(guest),
      body: { message: 'Thanks!' },
    });
    expect(reply.json.ticket.status).toBe('open');
  });

  it("keeps a guest's tickets when the guest registers", async () => {
    const guest = await startGuest(t);
    const created = await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET });
    const user = await registerUser(t, { guestId: guest.guestId }, guestCookie(guest));
    const mine = await call(t, 'GET', '/api/tickets', { token: user.token });
    expect(mine.json.tickets.map((x: { _id: string }) => x._id)).toEqual([created.json.ticket._id]);
    expect(mine.json.tickets[0].requester).toEqual({ type: 'user', name: user.username });
  });

  it("moves nothing for a guestId without that guest's own token", async () => {
    const guest = await startGuest(t);
    const created = await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET });
    const someoneElse = await startGuest(t);
    // The guestId alone (as staff see it), or beside another guest's token, proves nothing.
    const bare = await registerUser(t, { guestId: guest.guestId });
    const forged = await registerUser(t, { guestId: guest.guestId }, guestCookie(someoneElse));
    const login = await call(t, 'POST', '/api/login', {
      token: someoneElse.token,
      body: { username: bare.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false, guestId: guest.guestId },
    });
    expect(login.status).toBe(200);
    for (const token of [bare.token, forged.token, login.json.token as string]) {
      expect((await call(t, 'GET', '/api/tickets', { token })).json.tickets).toEqual([]);
      expect((await call(t, 'GET', `/api/tickets/${created.json.ticket._id}`, { token })).status).toBe(404);
    }
    // The guest still has it, and its session still works.
    const own = await call(t, 'GET', `/api/tickets/guest/${created.json.ticket._id}`, { token: guest.token, headers: guestHeaders(guest) });
    expect(own.status).toBe(200);
  });

  it("moves a guest's tickets when the guest logs in to an existing account", async () => {
    const user = await registerUser(t);
    const guest = await startGuest(t);
    const created = await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET });
    const login = await call(t, 'POST', '/api/login', {
      body: { username: user.username, password: TEST_PASSWORD, turnstileToken: 'ok', rememberMe: false, guestId: guest.guestId },
      headers: guestCookie(guest),
    });
    const mine = await call(t, 'GET', `/api/tickets/${created.json.ticket._id}`, { token: login.json.token });
    expect(mine.status).toBe(200);
  });

  it('hides a ticket from another guest and another user (404), and changes nothing', async () => {
    const owner = await startGuest(t);
    const created = await call(t, 'POST', '/api/tickets/guest', { token: owner.token, headers: guestHeaders(owner), body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    const before = await ticketCount();

    const intruder = await startGuest(t);
    const other = { token: intruder.token, headers: guestHeaders(intruder) };
    expect((await call(t, 'GET', `/api/tickets/guest/${id}`, other)).status).toBe(404);
    expect((await call(t, 'POST', `/api/tickets/guest/${id}/messages`, { ...other, body: { message: 'mine now' } })).status).toBe(404);
    expect((await call(t, 'PUT', `/api/tickets/guest/${id}`, { ...other, body: { status: 'closed' } })).status).toBe(404);
    expect((await call(t, 'GET', '/api/tickets/guest', other)).json.tickets).toEqual([]);

    const user = await registerUser(t);
    expect((await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).status).toBe(404);
    expect((await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'hi' } })).status).toBe(404);

    // A guest cannot use its token with someone else's Guest-ID.
    expect((await call(t, 'GET', `/api/tickets/guest/${id}`, { token: intruder.token, headers: guestHeaders(owner) })).status).toBe(401);
    expect(await ticketCount()).toBe(before);
  });

  it("hides a user's ticket from a guest and the user routes from guests", async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const guest = await startGuest(t);
    expect(
      (await call(t, 'GET', `/api/tickets/guest/${created.json.ticket._id}`, { token: guest.token, headers: guestHeaders(guest) })).status,
    ).toBe(404);
    expect((await call(t, 'GET', '/api/tickets', { token: guest.token, headers: guestHeaders(guest) })).status).toBe(403);
  });

  it('refuses staff calls to users and guests', async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    expect((await call(t, 'GET', '/api/staff/tickets', { token: user.token })).status).toBe(403);
    expect((await call(t, 'GET', `/api/staff/tickets/${id}`, { token: user.token })).status).toBe(403);
    expect((await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: user.token, body: { message: 'x' } })).status).toBe(403);
    expect((await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: user.token, body: { status: 'closed' } })).status).toBe(403);
    const guest = await startGuest(t);
    expect((await call(t, 'GET', '/api/staff/tickets', { token: guest.token, headers: guestHeaders(guest) })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/tickets')).status).toBe(401);
  });

  it('lets staff filter by status, priority and search, paginated', async () => {
    const user = await registerUser(t);
    const marker = `Refund ${Date.now()}`;
    await call(t, 'POST', '/api/tickets', { token: user.token, body: { ...NEW_TICKET, subject: `${marker} A`, priority: 'urgent' } });
    const b = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { ...NEW_TICKET, subject: `${marker} B`, priority: 'low' },
    });
    await call(t, 'PUT', `/api/staff/tickets/${b.json.ticket._id}`, { token: support.token, body: { status: 'resolved' } });

    const search = await call(t, 'GET', `/api/staff/tickets?search=${encodeURIComponent(marker)}`, { token: support.token });
    expect(search.json.total).toBe(2);
    const urgent = await call(t, 'GET', `/api/staff/tickets?search=${encodeURIComponent(marker)}&priority=urgent`, {
      token: support.token,
    });
    expect(urgent.json.tickets.map((x: { subject: string }) => x.subject)).toEqual([`${marker} A`]);
    const resolved = await call(t, 'GET', `/api/staff/tickets?search=${encodeURIComponent(marker)}&status=resolved`, {
      token: support.token,
    });
    expect(resolved.json.tickets.map((x: { subject: string }) => x.subject)).toEqual([`${marker} B`]);
    const byUser = await call(t, 'GET', `/api/staff/tickets?search=${user.username}&pageSize=1`, { token: support.token });
    expect(byUser.json).toMatchObject({ total: 2, pageSize: 1, page: 1 });
    expect(byUser.json.tickets).toHaveLength(1);
    const byUserId = await call(t, 'GET', `/api/staff/tickets?userId=${user.userId}`, { token: support.token });
    expect(byUserId.json.total).toBe(2);
    const wildcard = await call(t, 'GET', `/api/staff/tickets?search=${encodeURIComponent('%')}`, { token: support.token });
    expect(wildcard.json.total).toBe(0);
  });

  it("pages a requester's own tickets, newest activity first, and filters them by status", async () => {
    const user = await registerUser(t);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      ids.push(
        (await call(t, 'POST', '/api/tickets', { token: user.token, body: { ...NEW_TICKET, subject: `Mine ${n}` } })).json.ticket._id,
      );
    }
    await call(t, 'POST', `/api/tickets/${ids[0]}/messages`, { token: user.token, body: { message: 'bump' } });
    const first = await call(t, 'GET', '/api/tickets?pageSize=2', { token: user.token });
    expect(first.json).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.json.tickets.map((x: { subject: string }) => x.subject)).toEqual(['Mine 1', 'Mine 3']);
    const second = await call(t, 'GET', '/api/tickets?pageSize=2&page=2', { token: user.token });
    expect(second.json.tickets.map((x: { subject: string }) => x.subject)).toEqual(['Mine 2']);
    await call(t, 'PUT', `/api/tickets/${ids[1]}`, { token: user.token, body: { status: 'closed' } });
    const closed = await call(t, 'GET', '/api/tickets?status=closed', { token: user.token });
    expect(closed.json.tickets.map((x: { _id: string }) => x._id)).toEqual([ids[1]]);
    expect((await call(t, 'GET', '/api/tickets?pageSize=101', { token: user.token })).status).toBe(400);
  });

  it('lets an admin work the staff queue too', async () => {
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    expect((await call(t, 'GET', `/api/staff/tickets/${id}`, { token: admin.token })).status).toBe(200);
    const answered = await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: admin.token, body: { message: 'Admin here.' } });
    expect(answered.status).toBe(201);
    expect(answered.json.ticket.messages.at(-1)).toMatchObject({ author: 'staff', authorName: admin.username, body: 'Admin here.' });
    const seen = await call(t, 'GET', `/api/tickets/${id}`, { token: user.token });
    expect(seen.json.ticket.status).toBe('pending');
  });

  it('lets staff assign a ticket to themselves and change its status', async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const res = await call(t, 'PUT', `/api/staff/tickets/${created.json.ticket._id}`, {
      token: support.token,
      body: { assignToMe: true, status: 'pending' },
    });
    expect(res.json.ticket).toMatchObject({ status: 'pending', assignedTo: { _id: support.userId } });
    const mineOnly = await call(t, 'GET', '/api/staff/tickets?assigned=me&pageSize=100', { token: support.token });
    expect(mineOnly.json.tickets.some((x: { _id: string }) => x._id === created.json.ticket._id)).toBe(true);
  });

  it('refuses bad input with field errors, stores nothing refused, and accepts the exact limits', async () => {
    const user = await registerUser(t);
    const before = await ticketCount();
    const bad = await call(t, 'POST', '/api/tickets', { token: user.token, body: { subject: 'x', category: 'nope', message: '' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.details.fields).sort()).toEqual(['category', 'message', 'subject']);
    const long = await call(t, 'POST', '/api/tickets', { token: user.token, body: { ...NEW_TICKET, message: 'x'.repeat(5001) } });
    expect(long.status).toBe(400);
    const longSubject = await call(t, 'POST', '/api/tickets', { token: user.token, body: { ...NEW_TICKET, subject: 'x'.repeat(151) } });
    expect(Object.keys(longSubject.json.details.fields)).toEqual(['subject']);
    const atLimit = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { ...NEW_TICKET, subject: 'x'.repeat(150), message: 'y'.repeat(5000) },
    });
    expect(atLimit.status).toBe(201);
    const id = atLimit.json.ticket._id as string;
    const longReply = await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'z'.repeat(5001) } });
    expect(longReply.status).toBe(400);
    const longAnswer = await call(t, 'POST', `/api/staff/tickets/${id}/messages`, {
      token: support.token,
      body: { message: 'z'.repeat(5001) },
    });
    expect(longAnswer.status).toBe(400);
    expect((await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: '   ' } })).status).toBe(400);
    expect((await call(t, 'GET', '/api/tickets/not-a-uuid', { token: user.token })).status).toBe(404);
    expect(await ticketCount()).toBe(before + 1);
  });

  it('keeps message text as written (no HTML processing)', async () => {
    const user = await registerUser(t);
    const body = '<img src=x onerror=alert(1)> & "quotes"';
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: { ...NEW_TICKET, message: body } });
    expect(created.json.ticket.messages[0].body).toBe(body);
  });

  it('refuses replies on a closed ticket', async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    await call(t, 'PUT', `/api/tickets/${id}`, { token: user.token, body: { status: 'closed' } });
    const reply = await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'one more thing' } });
    expect(reply.status).toBe(422);
    expect(reply.json.code).toBe('TICKET_CLOSED');
  });
});

describe('ticket rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('limits ticket creation per requester with 429 and Retry-After', async () => {
    const guest = await startGuest(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET })).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const refused = await call(t, 'POST', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest), body: NEW_TICKET });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(t, 'GET', '/api/tickets/guest', { token: guest.token, headers: guestHeaders(guest) })).json.total).toBe(5);
  });

  it('limits messages per requester with 429 and Retry-After', async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: `note ${i}` } })).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const refused = await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'again' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).json.ticket.messageCount).toBe(31);
  });
});
