import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_COMPONENT_IDS } from '#shared/schemas/status.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

interface Component {
  id: string;
  state: string;
  checkState: string;
  uptimePercent: number | null;
  measuredDays: number;
  history: { day: string; uptimePercent: number | null }[];
}

/**
 * The status page tells the truth (decision 0230): an open incident sets the components it names, and
 * the headline, by its impact whatever the checks find; maintenance under way shows as maintenance;
 * uptime is measured only over the days that had checks.
 */
describe.each(enginesFor('logic'))('status reflects incidents, maintenance and measured days on %s', (engine) => {
  let t: TestApp;
  let staffToken: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    staffToken = staff.token;
    // Let the check made at start land first, then record that the checks found every component up,
    // dated a minute ahead so no check the minute job makes meanwhile is the latest one.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const res = await t.database.pool.query('SELECT count(DISTINCT component)::int AS n FROM status_checks');
      if (res.rows[0].n === STATUS_COMPONENT_IDS.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const id of STATUS_COMPONENT_IDS) {
      await t.database.pool.query(
        `INSERT INTO status_checks (component, state, latency_ms, detail, checked_at) VALUES ($1, 'up', 5, NULL, now() + interval '1 minute')`,
        [id],
      );
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function status() {
    const res = await call(t, 'GET', '/api/status');
    expect(res.status).toBe(200);
    // Never kept by a browser or a proxy without asking again: an incident shows on the next poll.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const body = res.json as { overall: string; components: Component[] };
    return { overall: body.overall, component: (id: string) => body.components.find((c) => c.id === id)! };
  }

  async function postIncident(body: Record<string, unknown>): Promise<string> {
    const res = await call(t, 'POST', '/api/status/incidents', { token: staffToken, body: { message: 'Looking into it.', ...body } });
    expect(res.status).toBe(201);
    return res.json.incident._id as string;
  }

  async function resolve(id: string) {
    expect((await call(t, 'PUT', `/api/status/incidents/${id}`, { token: staffToken, body: { status: 'resolved' } })).status).toBe(200);
  }

  it('starts operational when every check is up and nothing is open', async () => {
    const s = await status();
    expect(s.overall).toBe('up');
    expect(s.component('swap-provider')).toMatchObject({ state: 'up', checkState: 'up' });
  });

  it('shows a major incident on the swap provider as an outage, on the component and the headline, until it is resolved', async () => {
    const id = await postIncident({ title: 'Swaps are failing', impact: 'major', components: ['swap-provider'] });
    const during = await status();
    expect(during.overall).toBe('down');
    // The check still answers, and says so; the component's state follows the incident.
    expect(during.component('swap-provider')).toMatchObject({ state: 'down', checkState: 'up' });
    expect(during.component('payment-provider')).toMatchObject({ state: 'up' });

    // Monitoring is not resolved: still an outage.
    expect((await call(t, 'PUT', `/api/status/incidents/${id}`, { token: staffToken, body: { status: 'monitoring' } })).status).toBe(200);
    expect((await status()).component('swap-provider').state).toBe('down');

    await resolve(id);
    const after = await status();
    expect(after.overall).toBe('up');
    expect(after.component('swap-provider').state).toBe('up');
  });

  it('answers what affects each component now, without the history: the open incidents only, as the full report says', async () => {
    const id = await postIncident({ title: 'Top-ups are delayed', impact: 'minor', components: ['payment-provider'] });
    const res = await call(t, 'GET', '/api/status/current');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const now = res.json as {
      components: { id: string; state: string }[];
      incidents: { _id: string; title: string }[];
      maintenance: unknown[];
    };
    expect(now.components.map((c) => [c.id, c.state])).toEqual([
      ['api', 'up'],
      ['database', 'up'],
      ['payment-provider', 'degraded'],
      ['swap-provider', 'up'],
    ]);
    expect(Object.keys(now.components[0]!).sort()).toEqual(['id', 'name', 'state']);
    expect(now.incidents.map((i) => [i._id, i.title])).toEqual([[id, 'Top-ups are delayed']]);
    expect((await status()).component('payment-provider').state).toBe('degraded');

    await resolve(id);
    const after = (await call(t, 'GET', '/api/status/current')).json as typeof now;
    expect(after.incidents).toEqual([]);
    expect(after.components.find((c) => c.id === 'payment-provider')!.state).toBe('up');
  });

  it('shows a minor incident as degraded, and an incident naming no component on the headline only', async () => {
    const minor = await postIncident({ title: 'Top-ups confirm slowly', impact: 'minor', components: ['payment-provider'] });
    let s = await status();
    expect(s.overall).toBe('degraded');
    expect(s.component('payment-provider').state).toBe('degraded');

    // A critical incident on the same component wins over the minor one.
    const critical = await postIncident({ title: 'Top-ups are down', impact: 'critical', components: ['payment-provider'] });
    s = await status();
    expect(s.component('payment-provider').state).toBe('down');
    expect(s.overall).toBe('down');
    await resolve(critical);
    await resolve(minor);

    const everywhere = await postIncident({ title: 'Sign-ins are slow', impact: 'minor' });
    s = await status();
    expect(s.overall).toBe('degraded');
    expect(STATUS_COMPONENT_IDS.map((c) => s.component(c).state)).toEqual(['up', 'up', 'up', 'up']);
    await resolve(everywhere);
    expect((await status()).overall).toBe('up');
  });

  it('shows maintenance under way as maintenance, below an outage', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await call(t, 'POST', '/api/status/maintenance', {
      token: staffToken,
      body: { title: 'Database upgrade', description: 'The database moves to a new version.', startsAt, endsAt },
    });
    expect(created.status).toBe(201);
    expect((await status()).overall).toBe('maintenance');

    const id = await postIncident({ title: 'Swaps are failing', impact: 'major', components: ['swap-provider'] });
    expect((await status()).overall).toBe('down');
    await resolve(id);

    expect((await call(t, 'POST', `/api/status/maintenance/${created.json.maintenance._id}/cancel`, { token: staffToken })).status).toBe(
      204,
    );
    expect((await status()).overall).toBe('up');
  });

  it('measures uptime only over the days that had checks, and says how many', async () => {
    const before = (await status()).component('database');
    // Today has checks; the other 89 days none.
    expect(before.measuredDays).toBe(1);
    expect(before.history.filter((d) => d.uptimePercent === null)).toHaveLength(89);

    // Two earlier days with checks: one all up, one with half of them failed.
    await t.database.pool.query(
      `INSERT INTO status_daily (component, day, up_count, degraded_count, down_count) VALUES
         ('database', (now() AT TIME ZONE 'UTC')::date - 10, 100, 0, 0),
         ('database', (now() AT TIME ZONE 'UTC')::date - 5, 50, 0, 50)`,
    );
    const after = (await status()).component('database');
    expect(after.measuredDays).toBe(3);
    expect(after.history.filter((d) => d.uptimePercent === null)).toHaveLength(87);
    const todayRow = await t.database.pool.query(
      `SELECT up_count + degraded_count AS ok, up_count + degraded_count + down_count AS total FROM status_daily WHERE component = 'database' AND day = (now() AT TIME ZONE 'UTC')::date`,
    );
    const ok = Number(todayRow.rows[0].ok) + 150;
    const total = Number(todayRow.rows[0].total) + 200;
    expect(after.uptimePercent).toBeCloseTo((ok / total) * 100, 1);
  });
});
