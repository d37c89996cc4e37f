import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_CHECK_INTERVAL_S, STATUS_HISTORY_DAYS } from '#shared/schemas/status.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { runProbe } from './status.checks.js';
import { STATUS_CHECK_JOB } from './status.module.js';
import { defaultProbes, StatusService } from './status.service.js';

type ProviderMode = 'ok' | 'silent' | 'error' | 'busy';

/**
 * Plays NOWPayments' `GET /v1/status` on a local port: answering OK, accepting connections but never
 * answering ("nothing answers"), failing with a 500, or rate-limiting.
 */
async function startFakeProvider(): Promise<{ url: string; setMode(mode: ProviderMode): void; hits: string[]; close(): Promise<void> }> {
  let mode: ProviderMode = 'ok';
  const hanging = new Set<ServerResponse>();
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} key=${String(req.headers['x-api-key'])}`);
    if (mode === 'silent') {
      hanging.add(res);
      return;
    }
    if (mode === 'error') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal"}');
    if (mode === 'busy') return void res.writeHead(429, { 'content-type': 'application/json' }).end('{"message":"Too many"}');
    if (req.url === '/v1/status') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"OK"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    setMode: (next) => {
      mode = next;
    },
    hits,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(enginesFor('logic'))('status on %s', (engine) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startFakeProvider>>;
  let checker: StatusService;

  beforeAll(async () => {
    provider = await startFakeProvider();
    t = await startTestApp(engine, { RATE_LIMITS: '0', NOWPAYMENTS_API_BASE: provider.url });
    // The same probes the periodic job runs, with a shorter timeout so the test does not wait 3 s per check.
    checker = new StatusService(t.database.db, defaultProbes({ config: t.config, database: t.database, selfUrl: () => t.url }), {
      timeoutMs: 800,
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  async function component(id: string) {
    const res = await call(t, 'GET', '/api/status');
    expect(res.status).toBe(200);
    return res.json.components.find((c: { id: string }) => c.id === id);
  }

  it('checks every component once as soon as the server listens', async () => {
    const deadline = Date.now() + 15_000;
    let components: string[] = [];
    while (Date.now() < deadline) {
      const res = await t.database.pool.query('SELECT DISTINCT component FROM status_checks ORDER BY component');
      components = res.rows.map((r) => r.component as string);
      if (components.length === 4) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(components).toEqual(['api', 'database', 'payment-provider', 'swap-provider']);
    // The payment probe called the configured provider, with the API key, at NOWPayments' status path.
    expect(provider.hits[0]).toBe(`GET /v1/status key=${t.config.nowpayments.apiKey}`);
    expect((await component('api')).state).toBe('up');
    expect((await component('database')).state).toBe('up');
    // The swap provider's sandbox is mounted on this server and lists currencies.
    expect((await component('swap-provider')).state).toBe('up');
  });

  it('turns the payment provider down within one check when nothing answers, and up again when it answers', async () => {
    provider.setMode('ok');
    await checker.runChecks();
    expect((await component('payment-provider')).state).toBe('up');

    provider.setMode('silent');
    const started = Date.now();
    const results = await checker.runChecks();
    // One check, bounded by its timeout: the page never waits on a provider that hangs.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(results.find((r) => r.component === 'payment-provider')).toMatchObject({ state: 'down', latencyMs: null });
    const down = await component('payment-provider');
    expect(down).toMatchObject({ state: 'down', detail: 'No answer within 800 ms' });
    // Other components are unaffected.
    expect((await component('database')).state).toBe('up');

    provider.setMode('ok');
    await checker.runChecks();
    const recovered = await component('payment-provider');
    expect(recovered.state).toBe('up');
    expect(recovered.detail).toBeNull();
    expect(recovered.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('runs the checks as a job every minute: one run turns a silent provider down, and the next brings it back', async () => {
    // The periodic check is a cron job (one per minute across instances), so a change shows within one interval.
    expect(STATUS_CHECK_INTERVAL_S).toBe(60);
    const schedule = await t.database.pool.query('SELECT cron FROM pgboss.schedule WHERE name = $1', [STATUS_CHECK_JOB]);
    expect(schedule.rows).toEqual([{ cron: '* * * * *' }]);

    async function stateAfterJob(mode: ProviderMode, expected: string) {
      provider.setMode(mode);
      const sent = Date.now();
      await t.app.jobs.send(STATUS_CHECK_JOB);
      await expect
        .poll(
          async () => {
            const c = await component('payment-provider');
            return c.checkedAt && new Date(c.checkedAt).getTime() >= sent - 1000 ? c.state : 'pending';
          },
          { timeout: 20_000, interval: 250 },
        )
        .toBe(expected);
    }
    await stateAfterJob('silent', 'down');
    await stateAfterJob('ok', 'up');
  });

  it('treats a 500 as down and a 429 as degraded', async () => {
    provider.setMode('error');
    await checker.runChecks();
    expect(await component('payment-provider')).toMatchObject({ state: 'down', detail: 'Answered HTTP 500' });
    provider.setMode('busy');
    await checker.runChecks();
    expect(await component('payment-provider')).toMatchObject({ state: 'degraded', detail: 'Answered HTTP 429' });
    provider.setMode('ok');
    await checker.runChecks();
  });

  it('counts a refused connection as down, and a slow answer as degraded', async () => {
    const closed = await startFakeProvider();
    await closed.close();
    const refused = await runProbe(
      defaultProbes({
        config: { ...t.config, nowpayments: { ...t.config.nowpayments, apiBase: closed.url } },
        database: t.database,
        selfUrl: () => t.url,
      })[2]!,
      800,
    );
    expect(refused).toMatchObject({ component: 'payment-provider', state: 'down', detail: 'Connection refused' });

    const slow = await runProbe({ component: 'api', run: () => new Promise((r) => setTimeout(() => r({ kind: 'ok' }), 150)) }, 1000, 100);
    expect(slow.state).toBe('degraded');
  });

  it('reports 90 days of daily history with uptime per day', async () => {
    const before = await component('payment-provider');
    const today = before.history.at(-1);
    provider.setMode('silent');
    await checker.runChecks();
    provider.setMode('ok');
    const after = await component('payment-provider');
    expect(after.history).toHaveLength(STATUS_HISTORY_DAYS);
    expect(after.history.at(-1).day).toBe(new Date().toISOString().slice(0, 10));
    expect(after.history.at(-1).down).toBe(today.down + 1);
    const { up, degraded, down } = after.history.at(-1);
    expect(after.history.at(-1).uptimePercent).toBeCloseTo(((up + degraded) / (up + degraded + down)) * 100, 1);
    // Days before the first check have no data rather than an invented 100%.
    expect(after.history[0]).toMatchObject({ uptimePercent: null, up: 0, degraded: 0, down: 0 });
    await checker.runChecks();
  });

  it('shows a component whose last check is old as unknown', async () => {
    await t.database.pool.query(
      "UPDATE status_checks SET checked_at = checked_at - interval '10 minutes' WHERE component = 'swap-provider'",
    );
    expect((await component('swap-provider')).state).toBe('unknown');
  });

  it('lets staff post and update incidents, and no one else', async () => {
    const support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    const user = await registerUser(t);
    const incident = {
      title: 'Top-ups delayed',
      impact: 'major',
      components: ['payment-provider'],
      message: 'Payments are confirming slowly.',
    };

    expect((await call(t, 'POST', '/api/status/incidents', { token: user.token, body: incident })).status).toBe(403);
    expect((await call(t, 'POST', '/api/status/incidents', { body: incident })).status).toBe(401);
    expect((await call(t, 'POST', '/api/status/checks', { token: user.token })).status).toBe(403);

    const created = await call(t, 'POST', '/api/status/incidents', { token: support.token, body: incident });
    expect(created.status).toBe(201);
    expect(created.json.incident).toMatchObject({ title: 'Top-ups delayed', impact: 'major', status: 'investigating', resolvedAt: null });
    const id = created.json.incident._id as string;

    expect((await call(t, 'PUT', `/api/status/incidents/${id}`, { token: user.token, body: { status: 'resolved' } })).status).toBe(403);
    const resolved = await call(t, 'PUT', `/api/status/incidents/${id}`, {
      token: support.token,
      body: { status: 'resolved', message: 'All delayed top-ups are credited.' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json.incident.status).toBe('resolved');
    expect(resolved.json.incident.resolvedAt).not.toBeNull();
    expect(resolved.json.incident.updates.map((u: { status: string; message: string }) => [u.status, u.message])).toEqual([
      ['resolved', 'All delayed top-ups are credited.'],
      ['investigating', 'Payments are confirming slowly.'],
    ]);

    const status = await call(t, 'GET', '/api/status');
    expect(status.json.incidents.map((i: { _id: string }) => i._id)).toContain(id);
    expect(
      (
        await call(t, 'PUT', '/api/status/incidents/00000000-0000-4000-8000-000000000000', {
          token: support.token,
          body: { status: 'resolved' },
        })
      ).status,
    ).toBe(404);

    const checkNow = await call(t, 'POST', '/api/status/checks', { token: support.token });
    expect(checkNow.status).toBe(200);
    expect(checkNow.json.results).toHaveLength(4);
  });
});
