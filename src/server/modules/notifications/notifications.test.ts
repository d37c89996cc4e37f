import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.js';
import { pruneDeadRows } from '#server/modules/maintenance/prune.js';
import { MailService } from '#server/modules/mail/mail.service.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest, TEST_PASSWORD } from '#server/test/http.js';
import { control, deposit } from '#server/test/payments.js';
import { RecordingChannel } from '#server/test/recording-channel.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { DELIVER_NOTICE_JOB, NotificationsService, type EmitInput } from './notifications.service.js';

async function waitFor<T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs = 40_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A real HTTP client on the server-sent events feed: collects each `unread` event's count and each `change` event's topics. */
async function openStream(t: TestApp, auth: { token: string; headers?: Record<string, string> }) {
  const controller = new AbortController();
  const res = await fetch(`${t.url}/api/notifications/stream`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${auth.token}`, ...(auth.headers ?? {}) },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const counts: number[] = [];
  const changes: string[][] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          if (block.includes('event: unread')) counts.push((JSON.parse(data.slice(6)) as { unreadCount: number }).unreadCount);
          if (block.includes('event: change')) changes.push((JSON.parse(data.slice(6)) as { topics: string[] }).topics.sort());
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    counts,
    changes,
    /** Every topic told since the stream opened. */
    topics: () => [...new Set(changes.flat())].sort(),
    async close() {
      controller.abort();
      await done;
    },
  };
}

type Account = Awaited<ReturnType<typeof registerUser>>;

async function list(t: TestApp, token: string, query = '', headers: Record<string, string> = {}) {
  const res = await call(t, 'GET', `/api/notifications${query}`, { token, headers });
  expect(res.status).toBe(200);
  return res.json as {
    notifications: Array<{ id: string; event: string; title: string; body: string; link: string; readAt: string | null }>;
    unreadCount: number;
    nextCursor: string | null;
  };
}

async function setCells(t: TestApp, user: Account, changes: Array<{ event: string; channel: string; enabled: boolean }>) {
  const res = await call(t, 'PUT', '/api/users/notification-preferences', { token: user.token, body: { changes } });
  expect(res.status).toBe(200);
  return res.json;
}

/** What another module does when an event happens: emit in its own transaction. */
function emitter(t: TestApp): NotificationsService {
  const mail = new MailService({ database: t.database, config: t.config, jobs: t.app.jobs, log: t.app.log });
  const service = new NotificationsService({ database: t.database, jobs: t.app.jobs, mail, log: t.app.log });
  service.useChatChannels(['telegram', 'discord']);
  return service;
}

/** Chat off for the test notices of an account whose test is not about chat (keeps the queue short). */
async function inAppOnly(t: TestApp, user: Account) {
  await setCells(t, user, [
    { event: 'charge.succeeded', channel: 'telegram', enabled: false },
    { event: 'charge.succeeded', channel: 'discord', enabled: false },
  ]);
}

function chargeNotice(userId: string, n: number): EmitInput {
  return {
    to: { userId },
    event: 'charge.succeeded',
    key: `test.charge:${userId}:${n}`,
    title: `Charge ${n}`,
    body: `Charge number ${n}`,
    link: `/dashboard?charge=${n}`,
  };
}

async function deliveries(t: TestApp, key: string) {
  const rows = await t.database.db.execute<{ channel: string; status: string; attempts: number }>(
    sql`SELECT channel, status, attempts FROM notification_deliveries WHERE event_key = ${key} ORDER BY channel`,
  );
  return rows.rows;
}

describe.each(enginesFor('database'))('notifications on %s', { timeout: 60_000 }, (engine) => {
  let t: TestApp;
  const telegram = new RecordingChannel('telegram');
  const discord = new RecordingChannel('discord');

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' }, { chatChannels: [telegram, discord] });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  }, 120_000);

  it('a finished sandbox payment: one in-app notice, one Telegram and one Discord message, each linking to the payment; nothing twice', async () => {
    const user = await registerUser(t);
    const p = await deposit(t, user.token);
    for (const step of ['confirming', 'confirmed', 'sending', 'finished']) await control(t, p.providerPaymentId, { status: step });
    // The provider repeats itself: no second notice.
    await control(t, p.providerPaymentId, { status: 'finished' });

    const page = await list(t, user.token);
    // Defaults: the in-between steps (detected, confirming) are off; the credit is on everywhere.
    expect(page.notifications.map((n) => n.event)).toEqual(['payment.credited']);
    expect(page.notifications[0]).toMatchObject({ title: 'Payment credited', link: `/dashboard/payments/${p._id}`, readAt: null });
    expect(page.notifications[0]!.body).toContain('97.00 credits');
    expect(page.unreadCount).toBe(1);

    await waitFor(
      'both chat messages',
      () => telegram.for(user.userId).length + discord.for(user.userId).length,
      (n) => n === 2,
    );
    await t.app.jobs.drain(); // every delivery job still due has run: a second message would be recorded by now
    expect(telegram.for(user.userId)).toHaveLength(1);
    expect(discord.for(user.userId)).toHaveLength(1);
    expect(telegram.for(user.userId)[0]!.notice).toEqual({
      event: 'payment.credited',
      title: 'Payment credited',
      body: page.notifications[0]!.body,
      link: `https://olympus.example/dashboard/payments/${p._id}`,
    });
    expect(await deliveries(t, `payment.credited:${p._id}`)).toEqual([
      { channel: 'discord', status: 'sent', attempts: 1 },
      { channel: 'telegram', status: 'sent', attempts: 1 },
    ]);
  });

  it('every payment step makes its notice when turned on; a channel turned off gets nothing', async () => {
    const user = await registerUser(t);
    await setCells(t, user, [
      { event: 'payment.detected', channel: 'in_app', enabled: true },
      { event: 'payment.confirming', channel: 'in_app', enabled: true },
      { event: 'payment.credited', channel: 'discord', enabled: false },
      { event: 'payment.partially_paid', channel: 'telegram', enabled: false },
    ]);
    const p = await deposit(t, user.token);
    for (const step of ['confirming', 'confirmed', 'finished']) await control(t, p.providerPaymentId, { status: step });
    const partial = await deposit(t, user.token);
    await control(t, partial.providerPaymentId, { status: 'partially_paid', actuallyPaid: '0.0005' });
    const expired = await deposit(t, user.token);
    await control(t, expired.providerPaymentId, { status: 'expired' });

    const events = (await list(t, user.token)).notifications.map((n) => `${n.event} ${n.link}`);
    expect(events).toEqual([
      `payment.expired /dashboard/payments/${expired._id}`,
      `payment.partially_paid /dashboard/payments/${partial._id}`,
      `payment.credited /dashboard/payments/${p._id}`,
      `payment.confirming /dashboard/payments/${p._id}`,
      `payment.detected /dashboard/payments/${p._id}`,
    ]);
    await waitFor(
      'telegram credited + expired',
      () => telegram.for(user.userId).length,
      (n) => n >= 2,
    );
    await t.app.jobs.drain(); // every delivery job still due has run: a second message would be recorded by now
    // Telegram: credited and expired (partially paid turned off); Discord: partially paid and expired.
    expect(
      telegram
        .for(user.userId)
        .map((d) => d.notice.event)
        .sort(),
    ).toEqual(['payment.credited', 'payment.expired']);
    expect(
      discord
        .for(user.userId)
        .map((d) => d.notice.event)
        .sort(),
    ).toEqual(['payment.expired', 'payment.partially_paid']);
  });

  it('the stream tells a new unread count live; read one and read all; someone else’s ids are ignored', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    await inAppOnly(t, user);
    await inAppOnly(t, other);
    const stream = await openStream(t, user);
    try {
      await waitFor(
        'the first event',
        () => stream.counts,
        (c) => c.length === 1,
      );
      expect(stream.counts).toEqual([0]);
      const events = emitter(t);
      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 1)));
      await waitFor(
        'a live count',
        () => stream.counts,
        (c) => c.at(-1) === 1,
      );
      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 2)));
      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(other.userId, 3)));
      await waitFor(
        'a live count of 2',
        () => stream.counts,
        (c) => c.at(-1) === 2,
      );

      const mine = await list(t, user.token);
      const theirs = await list(t, other.token);
      expect(mine.notifications.map((n) => n.title)).toEqual(['Charge 2', 'Charge 1']);
      // Someone else's id is ignored; mine is read.
      const read = await call(t, 'POST', '/api/notifications/read', {
        token: user.token,
        body: { ids: [theirs.notifications[0]!.id, mine.notifications[1]!.id] },
      });
      expect(read.json).toEqual({ updated: 1, unreadCount: 1 });
      expect((await list(t, other.token)).unreadCount).toBe(1);
      await waitFor(
        'the count after read',
        () => stream.counts,
        (c) => c.at(-1) === 1,
      );
      expect((await list(t, user.token)).notifications.map((n) => n.readAt === null)).toEqual([true, false]);

      const all = await call(t, 'POST', '/api/notifications/read', { token: user.token, body: { all: true } });
      expect(all.json).toEqual({ updated: 1, unreadCount: 0 });
      await waitFor(
        'zero after read all',
        () => stream.counts,
        (c) => c.at(-1) === 0,
      );
      expect((await list(t, other.token)).unreadCount).toBe(1);
      // Bad bodies are refused.
      expect((await call(t, 'POST', '/api/notifications/read', { token: user.token, body: { all: false } })).status).toBe(400);
      expect((await call(t, 'POST', '/api/notifications/read', { token: user.token, body: { ids: ['nope'] } })).status).toBe(400);
    } finally {
      await stream.close();
    }
  });

  it('the stream tells which of my records changed: a deposit finishing is credits and payments, not someone else’s', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    const stream = await openStream(t, user);
    const theirs = await openStream(t, other);
    try {
      await waitFor(
        'the first event',
        () => stream.counts,
        (c) => c.length === 1,
      );
      const p = await deposit(t, user.token);
      await waitFor(
        'the new payment',
        () => stream.topics(),
        (topics) => topics.includes('payments'),
      );
      expect(stream.topics()).toEqual(['payments']);
      await control(t, p.providerPaymentId, { status: 'finished' });
      await waitFor(
        'the credit',
        () => stream.topics(),
        (topics) => topics.includes('credits'),
      );
      expect(stream.topics()).toEqual(['credits', 'payments']);
      // A ticket of mine is a topic of its own; nothing of this reached the other account's stream.
      const ticket = await call(t, 'POST', '/api/tickets', {
        token: user.token,
        body: { subject: 'Where is my deposit?', category: 'payments', priority: 'normal', message: 'It finished.' },
      });
      expect(ticket.status).toBe(201);
      await waitFor(
        'the ticket',
        () => stream.topics(),
        (topics) => topics.includes('tickets'),
      );
      expect(theirs.changes).toEqual([]);
    } finally {
      await stream.close();
      await theirs.close();
    }
  });

  it('pages newest first with a cursor; a cursor of someone else’s notice answers an empty page', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    await inAppOnly(t, user);
    await inAppOnly(t, other);
    const events = emitter(t);
    for (let n = 1; n <= 25; n++) await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 100 + n)));
    await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(other.userId, 999)));
    const first = await list(t, user.token, '?limit=10');
    expect(first.notifications.map((n) => n.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Charge ${125 - i}`));
    const second = await list(t, user.token, `?limit=10&cursor=${first.nextCursor}`);
    expect(second.notifications.map((n) => n.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Charge ${115 - i}`));
    const third = await list(t, user.token, `?limit=10&cursor=${second.nextCursor}`);
    expect(third.notifications.map((n) => n.title)).toEqual(Array.from({ length: 5 }, (_, i) => `Charge ${105 - i}`));
    expect(third.nextCursor).toBeNull();
    expect(third.unreadCount).toBe(25);
    const theirId = (await list(t, other.token)).notifications[0]!.id;
    expect((await list(t, user.token, `?cursor=${theirId}`)).notifications).toEqual([]);
    expect((await list(t, user.token, '?unread=true&limit=100')).notifications).toHaveLength(25);
  });

  it('security notices always reach email and the app; they cannot be turned off there', async () => {
    const user = await registerUser(t);
    const refused = await call(t, 'PUT', '/api/users/notification-preferences', {
      token: user.token,
      body: { changes: [{ event: 'security.password_changed', channel: 'in_app', enabled: false }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('NOTIFICATION_LOCKED');
    const prefs = (await call(t, 'GET', '/api/users/notification-preferences', { token: user.token })).json;
    const row = prefs.matrix.find((r: { event: string }) => r.event === 'security.password_changed');
    expect(row.channels).toMatchObject({
      email: { enabled: true, locked: true },
      in_app: { enabled: true, locked: true },
      telegram: { locked: false },
    });

    const changed = await call(t, 'POST', '/api/users/change-password', {
      token: user.token,
      body: { currentPassword: TEST_PASSWORD, newPassword: 'another long passphrase 7' },
    });
    expect(changed.status).toBe(200);
    const login = await call(t, 'POST', '/api/login', {
      body: { username: user.username, password: 'another long passphrase 7', turnstileToken: 'ok' },
    });
    const token = login.json.token as string;
    await waitFor(
      'the password notice',
      async () => (await list(t, token)).notifications.map((n) => n.event),
      (e) => e.includes('security.password_changed'),
    );
    const notice = (await list(t, token)).notifications.find((n) => n.event === 'security.password_changed')!;
    expect(notice.link).toBe('/dashboard/settings/security');
  });

  it('the mail column of the matrix is the old mail preference: the unsubscribe setting shows, and the matrix writes it', async () => {
    const user = await registerUser(t);
    expect((await call(t, 'PUT', '/api/users/mail-preferences', { token: user.token, body: { ticketReply: false } })).status).toBe(200);
    let prefs = (await call(t, 'GET', '/api/users/notification-preferences', { token: user.token })).json;
    expect(prefs.matrix.find((r: { event: string }) => r.event === 'ticket.reply').channels.email.enabled).toBe(false);
    prefs = await setCells(t, user, [{ event: 'payment.credited', channel: 'email', enabled: false }]);
    expect(prefs.matrix.find((r: { event: string }) => r.event === 'payment.credited').channels.email.enabled).toBe(false);
    expect((await call(t, 'GET', '/api/users/mail-preferences', { token: user.token })).json).toEqual({
      paymentCredited: false,
      ticketReply: false,
      orderUpdates: true,
    });
  });

  it('a staff reply on a guest’s ticket reaches the guest and links to the ticket; nobody else sees or reads it', async () => {
    const guest = await startGuest(t);
    const opts = { token: guest.token, headers: guestHeaders(guest) };
    const created = await call(t, 'POST', '/api/tickets/guest', {
      ...opts,
      body: { subject: 'Where is my reward', category: 'technical', priority: 'normal', message: 'Hello?' },
    });
    expect(created.status).toBe(201);
    const ticket = created.json.ticket as { _id: string; number: number };
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    const answered = await call(t, 'POST', `/api/staff/tickets/${ticket._id}/messages`, {
      token: staff.token,
      body: { message: 'Here it is.' },
    });
    expect(answered.status).toBeLessThan(300);

    const page = await list(t, guest.token, '', guestHeaders(guest));
    expect(page.notifications).toHaveLength(1);
    expect(page.notifications[0]).toMatchObject({
      event: 'ticket.reply',
      title: `New reply on ticket #${ticket.number}`,
      link: `/dashboard/support/${ticket._id}`,
    });
    // Nobody else sees it, nor marks it read.
    const stranger = await registerUser(t);
    expect((await list(t, stranger.token)).notifications).toEqual([]);
    expect(
      (await call(t, 'POST', '/api/notifications/read', { token: stranger.token, body: { ids: [page.notifications[0]!.id] } })).json
        .updated,
    ).toBe(0);
    // A user's own ticket: the reply is on the user's list too, and the mail opens the ticket itself.
    const owner = await registerUser(t);
    const own = await call(t, 'POST', '/api/tickets', {
      token: owner.token,
      body: { subject: 'Mine', category: 'technical', priority: 'normal', message: 'Hi' },
    });
    await call(t, 'POST', `/api/staff/tickets/${own.json.ticket._id}/messages`, { token: staff.token, body: { message: 'Answer' } });
    expect((await list(t, owner.token)).notifications[0]).toMatchObject({
      event: 'ticket.reply',
      link: `/dashboard/support/${own.json.ticket._id}`,
    });
  });

  it(
    'a refusal turns the channel off with its reason, shown in settings; nothing more goes there until it is resumed',
    { timeout: 120_000 },
    async () => {
      const user = await registerUser(t);
      const events = emitter(t);
      telegram.script.push({ userId: user.userId, outcome: 'refused', reason: 'Forbidden: bot was blocked by the user' });
      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 1)));
      await waitFor(
        'the refusal',
        () => deliveries(t, `test.charge:${user.userId}:1`),
        (rows) => rows.some((r) => r.status === 'refused'),
      );
      const prefs = (await call(t, 'GET', '/api/users/notification-preferences', { token: user.token })).json;
      expect(prefs.channels.find((c: { channel: string }) => c.channel === 'telegram')).toMatchObject({
        disabledReason: 'Forbidden: bot was blocked by the user',
      });

      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 2)));
      await waitFor(
        'discord only',
        () => discord.for(user.userId).length,
        (n) => n === 2,
      );
      expect((await deliveries(t, `test.charge:${user.userId}:2`)).map((r) => r.channel)).toEqual(['discord']);
      expect(telegram.for(user.userId)).toHaveLength(1);

      const resumed = await call(t, 'PUT', '/api/users/notification-preferences', {
        token: user.token,
        body: { resumeChannels: ['telegram'] },
      });
      expect(resumed.json.channels.find((c: { channel: string }) => c.channel === 'telegram').disabledReason).toBeNull();
      await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 3)));
      await waitFor(
        'telegram again',
        () => telegram.for(user.userId).length,
        (n) => n === 2,
      );
    },
  );

  it('a retryable failure is retried no sooner than the retry-after, and sent once', async () => {
    const user = await registerUser(t);
    const events = emitter(t);
    discord.script.push({ userId: user.userId, retryAfterMs: 6000 });
    await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 1)));
    const attempts = await waitFor(
      'the retry',
      () => discord.for(user.userId),
      (d) => d.length === 2,
      45_000,
    );
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(6000);
    await waitFor(
      'sent',
      () => deliveries(t, `test.charge:${user.userId}:1`),
      (rows) => rows.find((r) => r.channel === 'discord')?.status === 'sent',
    );
    // The job again (a retry of the queue, a duplicate): nothing more is sent.
    for (let i = 0; i < 3; i++) await t.app.jobs.send(DELIVER_NOTICE_JOB, { eventKey: `test.charge:${user.userId}:1`, channel: 'discord' });
    await t.app.jobs.drain(); // every delivery job still due has run: a second message would be recorded by now
    expect(discord.for(user.userId)).toHaveLength(2);
    expect((await deliveries(t, `test.charge:${user.userId}:1`)).find((r) => r.channel === 'discord')).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
  }, 90_000);

  it('the same event emitted twice is one notice in every channel', async () => {
    const user = await registerUser(t);
    const events = emitter(t);
    await Promise.all([1, 2, 3].map(() => t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 7)))));
    await waitFor(
      'both channels',
      () => telegram.for(user.userId).length + discord.for(user.userId).length,
      (n) => n === 2,
    );
    await t.app.jobs.drain(); // every delivery job still due has run: a second message would be recorded by now
    expect((await list(t, user.token)).notifications).toHaveLength(1);
    expect(telegram.for(user.userId)).toHaveLength(1);
    expect(discord.for(user.userId)).toHaveLength(1);
  });

  it('balance below the threshold the user set: told once, when it crosses', async () => {
    const user = await registerUser(t);
    const set = await call(t, 'PUT', '/api/users/notification-preferences', {
      token: user.token,
      body: { lowBalanceThresholdCents: 5000 },
    });
    expect(set.json.lowBalanceThresholdCents).toBe(5000);
    const p = await deposit(t, user.token);
    await control(t, p.providerPaymentId, { status: 'finished' });
    // 97 credits; the admin takes 40 (57 left, above 50), then 10 (47: below).
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    for (const amount of [-40, -10, -5]) {
      const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: admin.token,
        body: { userId: user.userId, amount, reason: 'notification test' },
      });
      expect(res.status).toBeLessThan(300);
    }
    const low = (await list(t, user.token)).notifications.filter((n) => n.event === 'balance.low');
    expect(low).toHaveLength(1);
    expect(low[0]!.body).toContain('47.00');
    // It links to the wallet, where the top-up is.
    expect(low[0]!.link).toBe('/dashboard/wallet');
  });

  it('notices older than 90 days are pruned; newer ones stay', async () => {
    const user = await registerUser(t);
    await inAppOnly(t, user);
    const events = emitter(t);
    for (const n of [1, 2]) await t.database.db.transaction(async (tx) => events.emit(tx, chargeNotice(user.userId, 500 + n)));
    await t.database.db.execute(
      sql`UPDATE notifications SET created_at = now() - interval '91 days' WHERE event_key = ${`test.charge:${user.userId}:501`}`,
    );
    await t.database.db.execute(
      sql`UPDATE notifications SET created_at = now() - interval '89 days' WHERE event_key = ${`test.charge:${user.userId}:502`}`,
    );
    const pruned = await pruneDeadRows(t.database.db);
    expect(pruned.notifications).toBeGreaterThanOrEqual(1);
    expect((await list(t, user.token)).notifications.map((n) => n.title)).toEqual(['Charge 502']);
  });
});

describe.each(enginesFor('database'))('two instances on one %s database', { timeout: 60_000 }, (engine) => {
  let a: TestApp;
  let b: TestApp;
  const telegram = new RecordingChannel('telegram');
  const discord = new RecordingChannel('discord');
  let closeSecond: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const secret = randomBytes(32).toString('hex');
    a = await startTestApp(engine, { RATE_LIMITS: '0', JWT_SECRET: secret }, { chatChannels: [telegram, discord] });
    // PostgreSQL: the second instance has its own pool and listener; the embedded database is one process.
    const database =
      engine === 'postgres' ? await openDatabase({ databaseUrl: a.database.connectionString!, dataDir: 'unused' }) : a.database;
    b = await startTestApp(engine, { RATE_LIMITS: '0', JWT_SECRET: secret }, { chatChannels: [telegram, discord], database });
    if (engine === 'postgres') closeSecond = () => database.close();
  }, 400_000);
  afterAll(async () => {
    await b?.close();
    await closeSecond();
    await a?.close();
  }, 120_000);

  it('a notice written on one instance reaches a stream held on the other', async () => {
    const user = await registerUser(a);
    const stream = await openStream(b, user);
    try {
      await waitFor(
        'the first event',
        () => stream.counts,
        (c) => c.length === 1,
      );
      await a.database.db.transaction(async (tx) => emitter(a).emit(tx, chargeNotice(user.userId, 1)));
      await waitFor(
        'the count on the other instance',
        () => stream.counts,
        (c) => c.at(-1) === 1,
      );
    } finally {
      await stream.close();
    }
  });

  it('sends nothing twice: both instances work the queue, and every job is queued again on both', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => registerUser(a)));
    telegram.delayMs = 200;
    discord.delayMs = 200;
    for (const [i, user] of users.entries()) {
      const instance = i % 2 === 0 ? a : b;
      await instance.database.db.transaction(async (tx) => emitter(instance).emit(tx, chargeNotice(user.userId, 1)));
    }
    // Duplicates of every job on both instances, as retries or a second sender would make.
    for (const user of users) {
      for (const app of [a, b]) {
        for (const channel of ['telegram', 'discord'])
          await app.app.jobs.send(DELIVER_NOTICE_JOB, { eventKey: `test.charge:${user.userId}:1`, channel });
      }
    }
    await waitFor(
      'every message',
      () => telegram.deliveries.length + discord.deliveries.length,
      (n) => n >= 8,
      30_000,
    );
    // Every delivery job still due, on either instance, has run: a second message would be recorded by now.
    await Promise.all([a.app.jobs.drain(), b.app.jobs.drain()]);
    for (const user of users) {
      expect(telegram.for(user.userId)).toHaveLength(1);
      expect(discord.for(user.userId)).toHaveLength(1);
    }
  }, 60_000);
});
