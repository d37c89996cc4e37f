import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '#shared/schemas/webhooks.js';
import { call, registerUser, startGuest, guestHeaders } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { SecretBox } from '#server/secret-box.js';
import { setRole } from '#server/modules/users/users.service.js';
import { standardSecret } from './signing.js';
import { MAX_ATTEMPTS, WebhookService } from './webhooks.service.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** A webhook receiver on 127.0.0.1: records every request; answers queued statuses per path, then 200. */
class Receiver {
  readonly requests: Received[] = [];
  private readonly scripted = new Map<string, number[]>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const fixed = this.fixed.get(path);
        const status = this.scripted.get(path)?.shift() ?? fixed?.status ?? 200;
        const respond = () =>
          res.writeHead(status, { 'content-type': 'text/plain' }).end(fixed?.body ?? (status === 200 ? 'ok' : 'receiver is down'));
        const held = this.held.get(path);
        if (held) held.push(respond);
        else respond();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private readonly held = new Map<string, (() => void)[]>();

  /** Requests to `path` get no answer until `release(path)`: a receiver that hangs. */
  hold(path: string): void {
    this.held.set(path, []);
  }

  release(path: string): void {
    const waiting = this.held.get(path) ?? [];
    this.held.delete(path);
    for (const answer of waiting) answer();
  }

  answer(path: string, ...statuses: number[]): void {
    this.scripted.set(path, statuses);
  }

  /** Every request to `path` gets this status and body until changed. */
  readonly fixed = new Map<string, { status: number; body: string | Buffer }>();

  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Checks a received request with the Standard Webhooks reference library, as a receiver would. `at` is
 * the receiver's clock (the library refuses timestamps more than 5 minutes off it).
 */
function verify(secret: string, request: Received, at?: Date): unknown {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  if (!at) return new Webhook(secret).verify(request.body, headers);
  const spy = vi.spyOn(Date, 'now').mockReturnValue(at.getTime());
  try {
    return new Webhook(secret).verify(request.body, headers);
  } finally {
    spy.mockRestore();
  }
}

/** A clock the test moves by hand. */
function testClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/** A job queue stand-in that records what would be queued (the service under test runs attempts itself). */
function recordingJobs() {
  const sent: Array<{ name: string; data: object; startAfterSeconds?: number | undefined }> = [];
  return {
    sent,
    send: async (name: string, data: object = {}, options: { startAfterSeconds?: number } = {}) => {
      sent.push({ name, data, startAfterSeconds: options.startAfterSeconds });
      return 'job';
    },
  };
}

const settings = (url: string, overrides: Record<string, unknown> = {}) => ({
  url,
  events: ['credits.changed'],
  enabled: true,
  ...overrides,
});

describe.each(enginesFor('database'))('webhooks on %s', (engine) => {
  let t: TestApp;
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    // Many accounts from one address: the register limit would get in the way.
    t = await startTestApp(engine, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  async function deliveries(token: string) {
    const res = await call(t, 'GET', '/api/users/webhook-deliveries', { token });
    expect(res.status).toBe(200);
    return res.json as { deliveries: Array<Record<string, unknown>>; total: number; page: number; pageSize: number };
  }

  it('shows no webhook until one is saved, then the secret once in full and masked afterwards', async () => {
    const user = await registerUser(t);
    const before = await call(t, 'GET', '/api/users/webhook-settings', { token: user.token });
    expect(before.json).toEqual({
      configured: false,
      url: null,
      events: [],
      enabled: false,
      secretHint: null,
      legacySecret: false,
      previousSecretExpiresAt: null,
      disabledAt: null,
      failingSince: null,
      updatedAt: null,
      // This server is started with WEBHOOK_ALLOW_PRIVATE_TARGETS=1: the form's hint follows it.
      privateTargetsAllowed: true,
    });

    const saved = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: settings(`${receiver.url}/a`, { events: ['payment.finished', 'ticket.answered'] }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      configured: true,
      url: `${receiver.url}/a`,
      events: ['payment.finished', 'ticket.answered'],
      enabled: true,
    });
    const secret = saved.json.secret as string;
    // Standard Webhooks form: whsec_ and the base64 of 24 random bytes.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(saved.json.secretHint).toBe(`whsec_••••••••${secret.slice(-4)}`);

    const read = await call(t, 'GET', '/api/users/webhook-settings', { token: user.token });
    expect(read.json.secret).toBeUndefined();
    expect(read.json.secretHint).toBe(saved.json.secretHint);
    expect(JSON.stringify(read.json)).not.toContain(secret.slice(6, 30));

    const again = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: settings(`${receiver.url}/b`, { enabled: false }),
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      url: `${receiver.url}/b`,
      events: ['credits.changed'],
      enabled: false,
      secretHint: saved.json.secretHint,
    });
    expect(again.json.secret).toBeUndefined();

    // Stored encrypted: the database never holds the secret as written.
    const row = await t.database.pool.query('SELECT secret_ciphertext FROM webhooks WHERE user_id = $1', [user.userId]);
    expect(row.rows[0].secret_ciphertext).not.toContain(secret.slice(6));
  });

  it('answers 400 with field errors for bad input', async () => {
    const user = await registerUser(t);
    const put = (body: unknown) => call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body });

    const notUrl = await put(settings('not a url'));
    expect(notUrl.status).toBe(400);
    expect(notUrl.json.details.fields.url).toMatch(/full URL/);

    const ftp = await put(settings('ftp://files.example.com/hook'));
    expect(ftp.json.details.fields.url).toMatch(/https/);

    const creds = await put(settings('https://user:pw@example.com/hook'));
    expect(creds.json.details.fields.url).toMatch(/credentials/);

    const unknownEvent = await put(settings(`${receiver.url}/x`, { events: ['payment.finished', 'everything'] }));
    expect(unknownEvent.status).toBe(400);
    expect(unknownEvent.json.details.fields['events.1']).toBeDefined();

    const noEvents = await put(settings(`${receiver.url}/x`, { events: [] }));
    expect(noEvents.status).toBe(400);
    expect(noEvents.json.details.fields.events).toMatch(/at least one event/);

    const noFlag = await put({ url: `${receiver.url}/x`, events: ['credits.changed'] });
    expect(noFlag.status).toBe(400);
    expect(noFlag.json.details.fields.enabled).toBeDefined();

    const unresolvable = await put(settings('https://no-such-host.invalid/hook'));
    expect(unresolvable.status).toBe(400);
    expect(unresolvable.json.details.fields.url).toMatch(/could not be/);

    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.configured).toBe(false);
  });

  it('delivers a test webhook signed and verifiable, and logs it', async () => {
    const user = await registerUser(t);
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: settings(`${receiver.url}/signed?source=olympus`),
    });
    const secret = saved.json.secret as string;

    const sent = await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    expect(sent.status).toBe(202);
    expect(sent.json.delivery).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    const deliveryId = sent.json.delivery._id as string;

    const [request] = await waitFor(
      'the test delivery',
      () => receiver.at('/signed?source=olympus').length > 0 && receiver.at('/signed?source=olympus'),
    );
    const { headers, body } = request!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-olympus-event']).toBe('webhook.test');
    expect(headers['webhook-id']).toBe(deliveryId);
    const timestamp = headers['webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // The reference implementation accepts it...
    expect(verify(secret, request!)).toMatchObject({ id: deliveryId, type: 'webhook.test', data: { message: expect.any(String) } });
    // ...and refuses a tampered body, another secret, or another message id.
    expect(() => verify(secret, { ...request!, body: body.replace('test', 'tesT') })).toThrow(/No matching signature/);
    expect(() => verify(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, request!)).toThrow(/No matching signature/);
    expect(() => verify(secret, { ...request!, headers: { ...headers, 'webhook-id': 'another' } })).toThrow(/No matching signature/);
    expect(JSON.parse(body)).toMatchObject({
      id: deliveryId,
      type: 'webhook.test',
      event: 'webhook.test',
      timestamp: expect.any(String),
      data: { message: expect.any(String) },
    });

    const log = await waitFor('the logged success', async () => {
      const list = await deliveries(user.token);
      return list.deliveries[0]?.status === 'succeeded' && list;
    });
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      _id: deliveryId,
      event: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      statusCode: 200,
      lastError: null,
    });
    expect(log.deliveries[0]!.deliveredAt).toEqual(expect.any(String));
  });

  it("does not let one user's hanging receiver delay another user's delivery", async () => {
    const slow = await registerUser(t);
    const quick = await registerUser(t);
    receiver.hold('/hangs');
    try {
      await call(t, 'PUT', '/api/users/webhook-settings', { token: slow.token, body: settings(`${receiver.url}/hangs`) });
      await call(t, 'PUT', '/api/users/webhook-settings', { token: quick.token, body: settings(`${receiver.url}/answers`) });
      expect((await call(t, 'POST', '/api/users/webhook-settings/test', { token: slow.token })).status).toBe(202);
      await waitFor('the hanging request', () => receiver.at('/hangs').length > 0);
      expect((await call(t, 'POST', '/api/users/webhook-settings/test', { token: quick.token })).status).toBe(202);
      // The receiver timeout is 10 s: with one delivery at a time, this would wait for it.
      await waitFor('the other delivery while the first still hangs', () => receiver.at('/answers').length > 0, 6_000);
      expect((await deliveries(slow.token)).deliveries[0]).toMatchObject({ status: 'pending' });
    } finally {
      receiver.release('/hangs');
    }
  });

  it('retries a failed delivery 5 seconds later with the same webhook-id and body, logging each attempt', async () => {
    const user = await registerUser(t);
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/flaky`) });
    receiver.answer('/flaky', 500);
    const sent = await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const deliveryId = sent.json.delivery._id as string;

    const failed = await waitFor('the failed first attempt', async () => {
      const first = (await deliveries(user.token)).deliveries[0];
      return first?.attempts === 1 && first;
    });
    expect(failed).toMatchObject({ status: 'pending', statusCode: 500, lastError: 'The receiver answered 500: receiver is down' });
    // The next attempt is announced: 5 seconds after the first.
    const firstAt = Date.parse(failed.lastAttemptAt as string);
    expect(Date.parse(failed.nextAttemptAt as string) - firstAt).toBe(5000);
    expect(failed.attemptLog).toEqual([
      expect.objectContaining({
        attempt: 1,
        trigger: 'automatic',
        statusCode: 500,
        responseExcerpt: 'receiver is down',
        durationMs: expect.any(Number),
      }),
    ]);

    const done = await waitFor(
      'the retried delivery',
      async () => {
        const first = (await deliveries(user.token)).deliveries[0];
        return first?.status === 'succeeded' && first;
      },
      40_000,
    );
    expect(done).toMatchObject({ _id: deliveryId, attempts: 2, statusCode: 200, lastError: null, nextAttemptAt: null });
    expect((done.attemptLog as Array<Record<string, unknown>>).map((a) => [a.attempt, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 500, 'receiver is down'],
      [2, 200, 'ok'],
    ]);
    const [first, second] = receiver.at('/flaky');
    expect(receiver.at('/flaky')).toHaveLength(2);
    expect(first!.headers['webhook-id']).toBe(deliveryId);
    expect(second!.headers['webhook-id']).toBe(deliveryId);
    expect(second!.body).toBe(first!.body);
    const secret = saved.json.secret as string;
    for (const r of [first!, second!]) expect(verify(secret, r)).toMatchObject({ id: deliveryId });
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4500);
  }, 60_000);

  it('spreads automatic attempts over 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/always-down`) });
    receiver.fixed.set('/always-down', { status: 503, body: 'x'.repeat(3000) });
    const clock = testClock();
    const jobs = recordingJobs();
    // The job's handler itself, on a delivery without a job, with time moved by hand.
    const service = new WebhookService({
      db: t.database.db,
      jobs,
      log: t.app.log,
      serverSecret: t.config.jwtSecret,
      allowPrivateTargets: true,
      now: clock.now,
    });
    const id = (
      await t.database.pool.query(
        `INSERT INTO webhook_deliveries (user_id, event, payload) VALUES ($1, 'webhook.test', '{}'::jsonb) RETURNING id`,
        [user.userId],
      )
    ).rows[0].id as string;
    const row = async () =>
      (await t.database.pool.query('SELECT status, attempts, auto_attempts, next_attempt_at FROM webhook_deliveries WHERE id = $1', [id]))
        .rows[0] as {
        status: string;
        attempts: number;
        next_attempt_at: Date | null;
      };

    const start = clock.now().getTime();
    await service.deliver(id);
    for (const [index, delay] of WEBHOOK_RETRY_DELAYS_SECONDS.entries()) {
      const after = await row();
      expect(after).toMatchObject({ status: 'pending', attempts: index + 1 });
      expect(after.next_attempt_at!.getTime() - clock.now().getTime()).toBe(delay * 1000);
      // A delayed job carries the retry.
      expect(jobs.sent.at(-1)).toEqual({ name: 'webhooks.deliver', data: { deliveryId: id }, startAfterSeconds: delay });
      // Not due yet: a job that runs early changes nothing.
      clock.advance(delay * 1000 - 10_000);
      await service.deliver(id);
      expect((await row()).attempts).toBe(index + 1);
      clock.advance(10_000);
      await service.deliver(id);
    }
    const final = await row();
    expect(final).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
    expect(MAX_ATTEMPTS).toBe(8);
    expect(receiver.at('/always-down')).toHaveLength(8);
    // About a day and a half from the first attempt to the last.
    const span = (clock.now().getTime() - start) / 3600_000;
    expect(span).toBeGreaterThan(27);
    expect(span).toBeLessThan(36);

    const log = (await call(t, 'GET', '/api/users/webhook-deliveries', { token: user.token })).json.deliveries[0];
    expect(log.attemptLog).toHaveLength(8);
    const times = log.attemptLog.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt));
    expect(times.slice(1).map((at: number, i: number) => (at - times[i]) / 1000)).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS]);
    // The excerpt is bounded to 1 KB.
    expect(log.attemptLog[0].responseExcerpt).toBe('x'.repeat(1024));
    // A finished delivery is not sent again, should its job run once more.
    clock.advance(3600_000);
    await service.deliver(id);
    expect(receiver.at('/always-down')).toHaveLength(8);
  });

  it('keeps response excerpts text-safe', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/odd-answers`) });
    const service = new WebhookService({
      db: t.database.db,
      jobs: recordingJobs(),
      log: t.app.log,
      serverSecret: t.config.jwtSecret,
      allowPrivateTargets: true,
    });
    const insert = async () =>
      (
        await t.database.pool.query(
          `INSERT INTO webhook_deliveries (user_id, event, payload) VALUES ($1, 'webhook.test', '{}'::jsonb) RETURNING id`,
          [user.userId],
        )
      ).rows[0].id as string;
    receiver.fixed.set('/odd-answers', { status: 500, body: 'bad\u0007\u001b[31m gateway\r\nline two' });
    const control = await insert();
    await service.deliver(control);
    receiver.fixed.set('/odd-answers', { status: 500, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]) });
    const binary = await insert();
    await service.deliver(binary);
    // 1023 ASCII bytes, then a two-byte character cut in half by the 1 KB limit.
    receiver.fixed.set('/odd-answers', { status: 500, body: `${'a'.repeat(1023)}é and more` });
    const cut = await insert();
    await service.deliver(cut);
    const excerpts = await t.database.pool.query(
      'SELECT delivery_id, response_excerpt FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::uuid[])',
      [[control, binary, cut]],
    );
    const byId = Object.fromEntries(
      excerpts.rows.map((r: { delivery_id: string; response_excerpt: string }) => [r.delivery_id, r.response_excerpt]),
    );
    expect(byId[control]).toBe('bad[31m gateway\nline two');
    expect(byId[binary]).toBe('[binary answer]');
    expect(byId[cut]).toBe(`${'a'.repeat(1023)}\uFFFD`);
    receiver.fixed.delete('/odd-answers');
  });

  it('replays a delivery by hand: a new attempt of the same message, owner only, audited', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/replayed`) });
    const secret = saved.json.secret as string;
    const clock = testClock();
    const service = new WebhookService({
      db: t.database.db,
      jobs: recordingJobs(),
      log: t.app.log,
      serverSecret: t.config.jwtSecret,
      allowPrivateTargets: true,
      now: clock.now,
    });
    const id = (
      await t.database.pool.query(
        `INSERT INTO webhook_deliveries (user_id, event, payload) VALUES ($1, 'credits.changed', '{"amountCents":5}'::jsonb) RETURNING id`,
        [user.userId],
      )
    ).rows[0].id as string;
    // Every automatic attempt fails: the delivery ends failed.
    receiver.fixed.set('/replayed', { status: 502, body: 'bad gateway' });
    await service.deliver(id);
    for (const delay of WEBHOOK_RETRY_DELAYS_SECONDS) {
      clock.advance(delay * 1000);
      await service.deliver(id);
    }
    const before = (await deliveries(user.token)).deliveries[0]!;
    expect(before).toMatchObject({ _id: id, status: 'failed', attempts: 8 });

    // Strangers, guests and bad ids are turned away, and nothing is sent.
    const sentBefore = receiver.at('/replayed').length;
    expect((await call(t, 'POST', `/api/users/webhook-deliveries/${id}/replay`, { token: other.token })).status).toBe(404);
    const guest = await startGuest(t);
    expect(
      (await call(t, 'POST', `/api/users/webhook-deliveries/${id}/replay`, { token: guest.token, headers: guestHeaders(guest) })).status,
    ).toBe(403);
    expect((await call(t, 'POST', '/api/users/webhook-deliveries/not-an-id/replay', { token: user.token })).status).toBe(400);
    expect(receiver.at('/replayed')).toHaveLength(sentBefore);

    // Fixed receiver: the replay delivers it.
    receiver.fixed.delete('/replayed');
    const replayed = await call(t, 'POST', `/api/users/webhook-deliveries/${id}/replay`, { token: user.token });
    expect(replayed.status).toBe(200);
    expect(replayed.json.delivery).toMatchObject({ _id: id, status: 'succeeded', attempts: 9, statusCode: 200, nextAttemptAt: null });
    expect(replayed.json.delivery.attemptLog.at(-1)).toMatchObject({
      attempt: 9,
      trigger: 'manual',
      statusCode: 200,
      responseExcerpt: 'ok',
    });
    const requests = receiver.at('/replayed');
    const last = requests.at(-1)!;
    expect(last.headers['webhook-id']).toBe(id);
    expect(last.body).toBe(requests[0]!.body);
    expect(verify(secret, last)).toMatchObject({ id, type: 'credits.changed', data: { amountCents: 5 } });

    const audit = await t.database.pool.query(
      "SELECT actor_id, target_id FROM audit_log WHERE action = 'webhook.delivery.replay' AND target_id = $1",
      [id],
    );
    expect(audit.rows).toEqual([{ actor_id: user.userId, target_id: id }]);
  });

  it('turns a webhook off after five days of failures without a success, tells the owner, and lets them turn it on again', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/dead`) });
    receiver.fixed.set('/dead', { status: 500, body: 'down' });
    const clock = testClock();
    // The app's event bus: the owner's mail and notice come from its subscribers, as in production.
    const service = new WebhookService({
      db: t.database.db,
      jobs: recordingJobs(),
      log: t.app.log,
      serverSecret: t.config.jwtSecret,
      allowPrivateTargets: true,
      now: clock.now,
      events: t.app.events,
    });
    const attempt = async (event = 'credits.changed') => {
      const id = (
        await t.database.pool.query(
          `INSERT INTO webhook_deliveries (user_id, event, payload, next_attempt_at) VALUES ($1, $2, '{}'::jsonb, $3) RETURNING id`,
          [user.userId, event, clock.now()],
        )
      ).rows[0].id as string;
      await service.deliver(id);
      return id;
    };
    const get = async () => (await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json;
    const DAY = 24 * 3600_000;

    await attempt();
    const firstFailure = clock.now().toISOString();
    expect(await get()).toMatchObject({ enabled: true, failingSince: firstFailure, disabledAt: null });
    // A success in between starts the count again.
    clock.advance(3 * DAY);
    receiver.fixed.delete('/dead');
    await attempt();
    expect((await get()).failingSince).toBeNull();
    receiver.fixed.set('/dead', { status: 500, body: 'down' });
    clock.advance(DAY);
    await attempt();
    const streakStart = clock.now().toISOString();
    clock.advance(5 * DAY - 60_000);
    await attempt();
    expect(await get()).toMatchObject({ enabled: true, failingSince: streakStart, disabledAt: null });

    clock.advance(60_000);
    await attempt();
    const off = await get();
    expect(off).toMatchObject({ enabled: false, failingSince: streakStart, disabledAt: clock.now().toISOString() });
    const mails = await t.database.pool.query(
      "SELECT subject, text_body AS text FROM mail_messages WHERE user_id = $1 AND kind = 'webhook_disabled'",
      [user.userId],
    );
    expect(mails.rows).toHaveLength(1);
    expect(mails.rows[0].subject).toBe('Your Olympus webhook was turned off');
    expect(mails.rows[0].text).toContain(`${receiver.url}/dead`);

    // While off, automatic deliveries stop (and the owner is not mailed twice).
    const sentBefore = receiver.at('/dead').length;
    const stopped = await attempt();
    expect(receiver.at('/dead')).toHaveLength(sentBefore);
    const stoppedRow = (await t.database.pool.query('SELECT status, last_error FROM webhook_deliveries WHERE id = $1', [stopped])).rows[0];
    expect(stoppedRow).toEqual({ status: 'failed', last_error: 'The webhook was turned off after five days of failed deliveries' });
    expect(
      (
        await t.database.pool.query("SELECT count(*)::int AS n FROM mail_messages WHERE user_id = $1 AND kind = 'webhook_disabled'", [
          user.userId,
        ])
      ).rows[0].n,
    ).toBe(1);

    // Only the owner can turn it on again; the count starts afresh.
    const stranger = await registerUser(t);
    expect((await call(t, 'POST', '/api/users/webhook-settings/enable', { token: stranger.token })).status).toBe(404);
    const on = await call(t, 'POST', '/api/users/webhook-settings/enable', { token: user.token });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ enabled: true, disabledAt: null, failingSince: null });
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const user = await registerUser(t);
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/rotated`) });
    const oldSecret = saved.json.secret as string;

    const rotated = await call(t, 'POST', '/api/users/webhook-settings/rotate-secret', { token: user.token });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.json.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.json.secretHint).toBe(`whsec_••••••••${newSecret.slice(-4)}`);
    const overlapEnd = Date.parse(rotated.json.previousSecretExpiresAt);
    expect(Math.abs(overlapEnd - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json).toMatchObject({
      secretHint: rotated.json.secretHint,
      previousSecretExpiresAt: rotated.json.previousSecretExpiresAt,
    });

    // During the overlap: two signatures; a receiver with either secret accepts the delivery.
    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const [during] = await waitFor('the delivery after rotation', () => receiver.at('/rotated').length > 0 && receiver.at('/rotated'));
    expect((during!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(newSecret, during!)).toMatchObject({ type: 'webhook.test' });
    expect(verify(oldSecret, during!)).toMatchObject({ type: 'webhook.test' });

    // A day later (the clock moved past the overlap): only the new secret signs.
    const clock = testClock(new Date(overlapEnd + 1000));
    const service = new WebhookService({
      db: t.database.db,
      jobs: recordingJobs(),
      log: t.app.log,
      serverSecret: t.config.jwtSecret,
      allowPrivateTargets: true,
      now: clock.now,
    });
    const id = (
      await t.database.pool.query(
        `INSERT INTO webhook_deliveries (user_id, event, payload) VALUES ($1, 'webhook.test', '{}'::jsonb) RETURNING id`,
        [user.userId],
      )
    ).rows[0].id as string;
    await service.deliver(id);
    const after = receiver.at('/rotated').at(-1)!;
    expect(after.headers['webhook-id']).toBe(id);
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verify(newSecret, after, clock.now())).toMatchObject({ id });
    expect(() => verify(oldSecret, after, clock.now())).toThrow(/No matching signature/);
    expect((await service.getSettings(user.userId)).previousSecretExpiresAt).toBeNull();

    // Rotating again retires the oldest secret at once: the overlap is with the one just replaced.
    const again = await call(t, 'POST', '/api/users/webhook-settings/rotate-secret', { token: user.token });
    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const third = await waitFor(
      'the delivery after the second rotation',
      () => receiver.at('/rotated').length > 2 && receiver.at('/rotated')[2],
    );
    expect(verify(again.json.secret, third)).toBeDefined();
    expect(verify(newSecret, third)).toBeDefined();
    expect(() => verify(oldSecret, third)).toThrow(/No matching signature/);
  });

  it('keeps signing with a secret made before Standard Webhooks, and says how to use it', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/legacy`) });
    // What migration 0019 finds: a base64url secret of 32 bytes (sealed as before), marked legacy.
    let bytes = randomBytes(32);
    while (!/[-_]/.test(bytes.toString('base64url'))) bytes = randomBytes(32);
    const legacy = `whsec_${bytes.toString('base64url')}`;
    const box = new SecretBox(t.config.jwtSecret, 'olympus webhook signing secrets v1');
    await t.database.pool.query('UPDATE webhooks SET secret_ciphertext = $1, legacy_secret = true WHERE user_id = $2', [
      box.seal(legacy),
      user.userId,
    ]);
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.legacySecret).toBe(true);

    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const [request] = await waitFor(
      'the delivery signed with the old secret',
      () => receiver.at('/legacy').length > 0 && receiver.at('/legacy'),
    );
    // The same key, written in the standard alphabet as the README says, verifies.
    expect(verify(standardSecret(legacy), request!)).toMatchObject({ type: 'webhook.test' });

    const rotated = await call(t, 'POST', '/api/users/webhook-settings/rotate-secret', { token: user.token });
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.legacySecret).toBe(false);
    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const second = await waitFor('the delivery after rotating', () => receiver.at('/legacy').length > 1 && receiver.at('/legacy')[1]);
    expect(verify(rotated.json.secret, second)).toBeDefined();
    expect(verify(standardSecret(legacy), second)).toBeDefined();
  });

  it('restarts the failure count when the URL changes, not when only the events change', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/count`) });
    const since = new Date(Date.now() - 3 * 24 * 3600_000);
    await t.database.pool.query('UPDATE webhooks SET failing_since = $1 WHERE user_id = $2', [since, user.userId]);
    const same = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: settings(`${receiver.url}/count`, { events: ['payment.finished'] }),
    });
    expect(same.json.failingSince).toBe(since.toISOString());
    const moved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/count-new`) });
    expect(moved.json.failingSince).toBeNull();
  });

  it('needs a saved webhook to rotate or test', async () => {
    const user = await registerUser(t);
    const rotate = await call(t, 'POST', '/api/users/webhook-settings/rotate-secret', { token: user.token });
    expect(rotate.status).toBe(404);
    expect(rotate.json.code).toBe('WEBHOOK_NOT_CONFIGURED');
    expect((await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token })).status).toBe(404);
  });

  it("keeps each user's deliveries to that user, and guests and strangers out", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: owner.token, body: settings(`${receiver.url}/private-log`) });
    await call(t, 'POST', '/api/users/webhook-settings/test', { token: owner.token });
    expect((await deliveries(owner.token)).total).toBe(1);
    expect(await deliveries(other.token)).toEqual({ deliveries: [], total: 0, page: 1, pageSize: 20 });
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: other.token })).json.configured).toBe(false);

    const guest = await startGuest(t);
    const asGuest = await call(t, 'GET', '/api/users/webhook-deliveries', { token: guest.token, headers: guestHeaders(guest) });
    expect(asGuest.status).toBe(403);
    expect((await call(t, 'PUT', '/api/users/webhook-settings', { body: settings(`${receiver.url}/x`) })).status).toBe(401);
  });

  it('pages the delivery log, newest first', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/paged`) });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token })).json.delivery._id);
    const page = await call(t, 'GET', '/api/users/webhook-deliveries?page=2&pageSize=2', { token: user.token });
    expect(page.json).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.json.deliveries.map((d: { _id: string }) => d._id)).toEqual([ids[0]]);
    expect((await call(t, 'GET', '/api/users/webhook-deliveries?pageSize=500', { token: user.token })).status).toBe(400);
  });

  it('reports credits changes and answered tickets to subscribers only; a refused change reports nothing', async () => {
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const subscriber = await registerUser(t);
    const unsubscribed = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', {
      token: subscriber.token,
      body: settings(`${receiver.url}/events`, { events: ['credits.changed', 'ticket.answered'] }),
    });
    await call(t, 'PUT', '/api/users/webhook-settings', {
      token: unsubscribed.token,
      body: settings(`${receiver.url}/events-off`, { events: ['payment.finished'] }),
    });

    for (const user of [subscriber, unsubscribed]) {
      const adjusted = await call(t, 'POST', '/api/admin/credits/adjustments', {
        token: admin.token,
        body: { userId: user.userId, amount: 12.5, reason: 'Goodwill credit' },
      });
      expect(adjusted.status, JSON.stringify(adjusted.json)).toBeLessThan(300);
    }
    // A change that is refused (below zero) reports nothing.
    const refused = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: subscriber.userId, amount: -100, reason: 'Too much' },
    });
    expect(refused.status).toBe(422);

    const ticket = await call(t, 'POST', '/api/tickets', {
      token: subscriber.token,
      body: { subject: 'Where are my credits?', category: 'payments', priority: 'normal', message: 'Hello' },
    });
    expect(ticket.status).toBe(201);
    const answered = await call(t, 'POST', `/api/staff/tickets/${ticket.json.ticket._id}/messages`, {
      token: admin.token,
      body: { message: 'They are there now.' },
    });
    expect(answered.status).toBeLessThan(300);

    const got = await waitFor('both events', () => receiver.at('/events').length >= 2 && receiver.at('/events'));
    const byEvent = Object.fromEntries(got.map((r) => [r.headers['x-olympus-event'], JSON.parse(r.body)]));
    expect(byEvent['credits.changed'].data).toMatchObject({
      kind: 'adjustment',
      amountCents: 1250,
      balanceCents: 1250,
      description: 'Balance adjustment by support',
    });
    // The staff member's internal reason never leaves the console (docs/decisions/0235).
    expect(JSON.stringify(byEvent['credits.changed'])).not.toContain('Goodwill credit');
    expect(byEvent['ticket.answered'].data).toMatchObject({
      ticketId: ticket.json.ticket._id,
      subject: 'Where are my credits?',
      status: 'pending',
    });
    await t.app.jobs.drain(); // every delivery job still due has run: a third request would have arrived by now
    expect(receiver.at('/events')).toHaveLength(2);
    expect(receiver.at('/events-off')).toHaveLength(0);
    expect((await deliveries(unsubscribed.token)).total).toBe(0);
  });

  it('reports a finished payment and a finished exchange once each, with the credits they brought', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: settings(`${receiver.url}/money`, { events: ['payment.finished', 'exchange.finished', 'credits.changed'] }),
    });

    const deposit = await call(t, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount: 100 } });
    expect(deposit.status).toBe(201);
    const payment = deposit.json.payment as { _id: string; providerPaymentId: string };
    for (const status of ['confirming', 'finished', 'finished']) {
      const moved = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, { body: { status } });
      expect(moved.status).toBe(200);
    }

    const swap = await call(t, 'POST', '/api/exchange/exchanges', {
      token: user.token,
      body: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
    });
    expect(swap.status).toBe(201);
    const exchange = swap.json.data.exchange as { _id: string; providerExchangeId: string };
    for (const status of ['finished', 'finished']) {
      expect((await call(t, 'POST', `/sandbox/swap/exchanges/${exchange.providerExchangeId}/status`, { body: { status } })).status).toBe(
        200,
      );
    }

    const got = await waitFor('four events', () => receiver.at('/money').length >= 4 && receiver.at('/money'));
    await t.app.jobs.drain(); // every delivery job still due has run: a fifth request would have arrived by now
    const events = receiver.at('/money').map((r) => ({ event: r.headers['x-olympus-event'], data: JSON.parse(r.body).data }));
    expect(events).toHaveLength(4);
    expect(got).toHaveLength(4);
    expect(events.filter((e) => e.event === 'payment.finished')).toEqual([
      {
        event: 'payment.finished',
        data: expect.objectContaining({ paymentId: payment._id, status: 'completed', priceAmountCents: 10000, creditedCents: 9700 }),
      },
    ]);
    expect(events.filter((e) => e.event === 'exchange.finished')).toEqual([
      {
        event: 'exchange.finished',
        data: expect.objectContaining({ exchangeId: exchange._id, fromCurrency: 'btc', toCurrency: 'eth', earnedRewardCents: 325 }),
      },
    ]);
    expect(
      events
        .filter((e) => e.event === 'credits.changed')
        .map((e) => [e.data.kind, e.data.amountCents])
        .sort(),
    ).toEqual([
      ['payment', 9700],
      ['reward', 325],
    ]);
  }, 60_000);

  it('sends nothing while a webhook is turned off', async () => {
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/off`, { enabled: false }) });
    await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: user.userId, amount: 1, reason: 'Goodwill credit' },
    });
    expect((await deliveries(user.token)).total).toBe(0);
  });
});

describe.each(enginesFor('database'))('webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS on %s', (engine) => {
  let t: TestApp;
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('refuses private, loopback and link-local URLs and plain http when saving', async () => {
    const user = await registerUser(t);
    // The form says so under the URL field.
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.privateTargetsAllowed).toBe(false);
    const put = (url: string) => call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(url) });
    const cases: Array<[string, RegExp]> = [
      [`${receiver.url}/hook`, /https/],
      ['https://127.0.0.1/hook', /loopback/],
      ['https://localhost/hook', /loopback/],
      ['https://[::1]/hook', /loopback/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://10.1.2.3/hook', /private/],
      ['https://192.168.0.10/hook', /private/],
      ['https://100.64.0.1/hook', /CGNAT/],
      ['https://[fd00::1]/hook', /unique-local/],
      ['https://[fe80::1]/hook', /link-local/],
      ['https://0.0.0.0/hook', /unspecified/],
    ];
    for (const [url, message] of cases) {
      const res = await put(url);
      expect(res.status, url).toBe(400);
      expect(res.json.details.fields.url, url).toMatch(message);
    }
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.configured).toBe(false);
  });

  it('refuses at delivery a URL that points at a private address by then, without connecting', async () => {
    const user = await registerUser(t);
    // A public literal address passes the save-time check without DNS...
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings('https://93.184.216.34/hook') });
    expect(saved.status).toBe(200);
    // ...then the name behind a URL comes to mean loopback (as after a DNS change).
    const port = new URL(receiver.url).port;
    await t.database.pool.query('UPDATE webhooks SET url = $1 WHERE user_id = $2', [`https://localhost:${port}/hook`, user.userId]);
    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const failed = await waitFor('the refused delivery', async () => {
      const first = (await call(t, 'GET', '/api/users/webhook-deliveries', { token: user.token })).json.deliveries[0];
      return first?.status === 'failed' && first;
    });
    expect(failed).toMatchObject({ attempts: 1, statusCode: null });
    expect(failed.lastError).toMatch(/loopback/);
    expect(receiver.requests).toHaveLength(0);
  });
});
