import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, startGuest, guestHeaders } from '#server/test/http.js';
import { ENGINES, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
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
        const status = this.scripted.get(path)?.shift() ?? 200;
        const respond = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver is down');
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

  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const hmac = (secret: string, timestamp: string, body: string) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

const settings = (url: string, overrides: Record<string, unknown> = {}) => ({ url, events: ['credits.changed'], enabled: true, ...overrides });

describe.each(ENGINES)('webhooks on %s', (engine) => {
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
    expect(before.json).toEqual({ configured: false, url: null, events: [], enabled: false, secretHint: null, updatedAt: null });

    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/a`, { events: ['payment.finished', 'ticket.answered'] }) });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ configured: true, url: `${receiver.url}/a`, events: ['payment.finished', 'ticket.answered'], enabled: true });
    const secret = saved.json.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(saved.json.secretHint).toBe(`whsec_••••••••${secret.slice(-4)}`);

    const read = await call(t, 'GET', '/api/users/webhook-settings', { token: user.token });
    expect(read.json.secret).toBeUndefined();
    expect(read.json.secretHint).toBe(saved.json.secretHint);
    expect(JSON.stringify(read.json)).not.toContain(secret.slice(6, 30));

    const again = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/b`, { enabled: false }) });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ url: `${receiver.url}/b`, events: ['credits.changed'], enabled: false, secretHint: saved.json.secretHint });
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
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/signed?source=olympus`) });
    const secret = saved.json.secret as string;

    const sent = await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    expect(sent.status).toBe(202);
    expect(sent.json.delivery).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    const deliveryId = sent.json.delivery._id as string;

    const [request] = await waitFor('the test delivery', () => receiver.at('/signed?source=olympus').length > 0 && receiver.at('/signed?source=olympus'));
    const { headers, body } = request!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-olympus-event']).toBe('webhook.test');
    expect(headers['x-olympus-delivery']).toBe(deliveryId);
    const timestamp = headers['x-olympus-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['x-olympus-signature']).toBe(hmac(secret, timestamp, body));
    // Tampering with the body breaks the signature.
    expect(headers['x-olympus-signature']).not.toBe(hmac(secret, timestamp, body.replace('test', 'tesT')));
    expect(JSON.parse(body)).toMatchObject({ id: deliveryId, event: 'webhook.test', data: { message: expect.any(String) } });

    const log = await waitFor('the logged success', async () => {
      const list = await deliveries(user.token);
      return list.deliveries[0]?.status === 'succeeded' && list;
    });
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({ _id: deliveryId, event: 'webhook.test', status: 'succeeded', attempts: 1, statusCode: 200, lastError: null });
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

  it('retries a delivery the receiver failed, with the same id and body', async () => {
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

    const done = await waitFor(
      'the retried delivery',
      async () => {
        const first = (await deliveries(user.token)).deliveries[0];
        return first?.status === 'succeeded' && first;
      },
      40_000,
    );
    expect(done).toMatchObject({ _id: deliveryId, attempts: 2, statusCode: 200, lastError: null });
    const [first, second] = receiver.at('/flaky');
    expect(receiver.at('/flaky')).toHaveLength(2);
    expect(second!.headers['x-olympus-delivery']).toBe(deliveryId);
    expect(second!.body).toBe(first!.body);
    const secret = saved.json.secret as string;
    for (const r of [first!, second!]) expect(r.headers['x-olympus-signature']).toBe(hmac(secret, r.headers['x-olympus-timestamp'] as string, r.body));
    // The job queue waits before retrying (5-10 s for the first retry), and longer after each failure.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4500);
    const queue = await t.database.pool.query('SELECT retry_limit, retry_delay, retry_backoff FROM pgboss.queue WHERE name = $1', ['webhooks.deliver']);
    expect(queue.rows[0]).toMatchObject({ retry_backoff: true });
    expect(queue.rows[0].retry_delay).toBeGreaterThan(0);
    expect(queue.rows[0].retry_limit).toBeGreaterThanOrEqual(MAX_ATTEMPTS - 1);

    const attempts = await t.database.pool.query('SELECT attempt, status_code, error FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryId]);
    expect(attempts.rows).toEqual([
      { attempt: 1, status_code: 500, error: 'The receiver answered 500: receiver is down' },
      { attempt: 2, status_code: 200, error: null },
    ]);
  }, 60_000);

  it('asks the queue to retry a failed attempt, and marks the delivery failed after the last one', async () => {
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/always-down`) });
    receiver.answer('/always-down', 503, 503);
    // The job's handler itself, on deliveries without a job, so no queue timing is involved.
    const service = new WebhookService({ db: t.database.db, jobs: null as never, log: t.app.log, serverSecret: t.config.jwtSecret, allowPrivateTargets: true });
    const insert = async (attempts: number) =>
      (await t.database.pool.query(`INSERT INTO webhook_deliveries (user_id, event, payload, attempts) VALUES ($1, 'webhook.test', '{}'::jsonb, $2) RETURNING id`, [user.userId, attempts]))
        .rows[0].id as string;

    const early = await insert(0);
    await expect(service.deliver(early)).rejects.toThrow(/attempt 1 failed/);
    const last = await insert(MAX_ATTEMPTS - 1);
    await expect(service.deliver(last)).resolves.toBeUndefined();
    expect(receiver.at('/always-down')).toHaveLength(2);

    const rows = await t.database.pool.query('SELECT id, status, attempts, last_status_code FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [[early, last]]);
    const byId = Object.fromEntries(rows.rows.map((r: { id: string }) => [r.id, r]));
    expect(byId[early]).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    expect(byId[last]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_status_code: 503 });
    // A finished delivery is not sent again, should its job run once more.
    await service.deliver(last);
    expect(receiver.at('/always-down')).toHaveLength(2);
  });

  it('signs with the new secret after rotation; the old one no longer matches', async () => {
    const user = await registerUser(t);
    const saved = await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/rotated`) });
    const oldSecret = saved.json.secret as string;

    const rotated = await call(t, 'POST', '/api/users/webhook-settings/rotate-secret', { token: user.token });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.json.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.json.secretHint).toBe(`whsec_••••••••${newSecret.slice(-4)}`);
    expect((await call(t, 'GET', '/api/users/webhook-settings', { token: user.token })).json.secretHint).toBe(rotated.json.secretHint);

    await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token });
    const [request] = await waitFor('the delivery after rotation', () => receiver.at('/rotated').length > 0 && receiver.at('/rotated'));
    const timestamp = request!.headers['x-olympus-timestamp'] as string;
    expect(request!.headers['x-olympus-signature']).toBe(hmac(newSecret, timestamp, request!.body));
    expect(request!.headers['x-olympus-signature']).not.toBe(hmac(oldSecret, timestamp, request!.body));
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
    for (let i = 0; i < 3; i += 1) ids.push((await call(t, 'POST', '/api/users/webhook-settings/test', { token: user.token })).json.delivery._id);
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
    await call(t, 'PUT', '/api/users/webhook-settings', { token: subscriber.token, body: settings(`${receiver.url}/events`, { events: ['credits.changed', 'ticket.answered'] }) });
    await call(t, 'PUT', '/api/users/webhook-settings', { token: unsubscribed.token, body: settings(`${receiver.url}/events-off`, { events: ['payment.finished'] }) });

    for (const user of [subscriber, unsubscribed]) {
      const adjusted = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body: { userId: user.userId, amount: 12.5, reason: 'Goodwill credit' } });
      expect(adjusted.status, JSON.stringify(adjusted.json)).toBeLessThan(300);
    }
    // A change that is refused (below zero) reports nothing.
    const refused = await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body: { userId: subscriber.userId, amount: -100, reason: 'Too much' } });
    expect(refused.status).toBe(422);

    const ticket = await call(t, 'POST', '/api/tickets', { token: subscriber.token, body: { subject: 'Where are my credits?', category: 'payments', priority: 'normal', message: 'Hello' } });
    expect(ticket.status).toBe(201);
    const answered = await call(t, 'POST', `/api/staff/tickets/${ticket.json.ticket._id}/messages`, { token: admin.token, body: { message: 'They are there now.' } });
    expect(answered.status).toBeLessThan(300);

    const got = await waitFor('both events', () => receiver.at('/events').length >= 2 && receiver.at('/events'));
    const byEvent = Object.fromEntries(got.map((r) => [r.headers['x-olympus-event'], JSON.parse(r.body)]));
    expect(byEvent['credits.changed'].data).toMatchObject({ kind: 'adjustment', amountCents: 1250, balanceCents: 1250 });
    expect(byEvent['ticket.answered'].data).toMatchObject({ ticketId: ticket.json.ticket._id, subject: 'Where are my credits?', status: 'pending' });
    await new Promise((r) => setTimeout(r, 2500));
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
      expect((await call(t, 'POST', `/sandbox/swap/exchanges/${exchange.providerExchangeId}/status`, { body: { status } })).status).toBe(200);
    }

    const got = await waitFor('four events', () => receiver.at('/money').length >= 4 && receiver.at('/money'));
    await new Promise((r) => setTimeout(r, 2500));
    const events = receiver.at('/money').map((r) => ({ event: r.headers['x-olympus-event'], data: JSON.parse(r.body).data }));
    expect(events).toHaveLength(4);
    expect(got).toHaveLength(4);
    expect(events.filter((e) => e.event === 'payment.finished')).toEqual([
      { event: 'payment.finished', data: expect.objectContaining({ paymentId: payment._id, status: 'completed', priceAmountCents: 10000, creditedCents: 9700 }) },
    ]);
    expect(events.filter((e) => e.event === 'exchange.finished')).toEqual([
      { event: 'exchange.finished', data: expect.objectContaining({ exchangeId: exchange._id, fromCurrency: 'btc', toCurrency: 'eth', earnedRewardCents: 325 }) },
    ]);
    expect(events.filter((e) => e.event === 'credits.changed').map((e) => [e.data.kind, e.data.amountCents]).sort()).toEqual([
      ['payment', 9700],
      ['reward', 325],
    ]);
  }, 60_000);

  it('sends nothing while a webhook is turned off', async () => {
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const user = await registerUser(t);
    await call(t, 'PUT', '/api/users/webhook-settings', { token: user.token, body: settings(`${receiver.url}/off`, { enabled: false }) });
    await call(t, 'POST', '/api/admin/credits/adjustments', { token: admin.token, body: { userId: user.userId, amount: 1, reason: 'Goodwill credit' } });
    expect((await deliveries(user.token)).total).toBe(0);
  });
});

describe.each(ENGINES)('webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS on %s', (engine) => {
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
