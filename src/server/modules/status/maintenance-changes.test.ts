import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { linkToken, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(enginesFor('logic'))('editing and cancelling maintenance on %s', (engine) => {
  let t: TestApp;
  let staff: { token: string; userId: string };
  const email = `maint-${engine}-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    await call(t, 'POST', '/api/status/subscriptions', { body: { email } });
    const [mail] = await waitForMail(t, email, 'Confirm your Olympus status subscription');
    expect(
      (await call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token: linkToken(mail!, '/status/confirm') } })).status,
    ).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function schedule(title: string, start: number, end: number): Promise<string> {
    const res = await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: { title, description: 'A planned pause.', startsAt: iso(start), endsAt: iso(end) },
    });
    expect(res.status).toBe(201);
    return res.json.maintenance._id as string;
  }
  const listed = async () =>
    (await call(t, 'GET', '/api/status')).json.maintenance as Array<{ _id: string; title: string; startsAt: string; endsAt: string }>;
  const feed = async () => (await t.app.inject({ url: '/api/status/feed.atom' })).body;
  async function audited(id: string, action: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await t.database.pool.query('SELECT action, actor_id FROM audit_log WHERE target_id = $1', [id]);
      const row = (rows.rows as Array<{ action: string; actor_id: string }>).find((r) => r.action === action);
      if (row) {
        expect(row.actor_id).toBe(staff.userId);
        return;
      }
      if (Date.now() > deadline) throw new Error(`no audit entry ${action} for ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('lets staff edit a window not over yet, tells subscribers when it moves, and refuses bad or late edits', async () => {
    const now = Date.now();
    const id = await schedule('Disk swap', now + HOUR, now + 2 * HOUR);
    const user = await registerUser(t);
    expect((await call(t, 'PUT', `/api/status/maintenance/${id}`, { token: user.token, body: { title: 'Hijacked' } })).status).toBe(403);
    expect((await call(t, 'PUT', `/api/status/maintenance/${id}`, { body: { title: 'Hijacked' } })).status).toBe(401);
    // The end must stay after the start, whether both are sent or only one moves past the stored other.
    expect(
      (
        await call(t, 'PUT', `/api/status/maintenance/${id}`, {
          token: staff.token,
          body: { startsAt: iso(now + 3 * HOUR), endsAt: iso(now + 2 * HOUR) },
        })
      ).status,
    ).toBe(400);
    const pastEnd = await call(t, 'PUT', `/api/status/maintenance/${id}`, { token: staff.token, body: { startsAt: iso(now + 5 * HOUR) } });
    expect(pastEnd.status).toBe(400);
    expect(
      (
        await call(t, 'PUT', '/api/status/maintenance/00000000-0000-4000-8000-000000000000', {
          token: staff.token,
          body: { title: 'Nobody' },
        })
      ).status,
    ).toBe(404);

    const moved = await call(t, 'PUT', `/api/status/maintenance/${id}`, {
      token: staff.token,
      body: { title: 'Disk swap (moved)', startsAt: iso(now + 3 * HOUR), endsAt: iso(now + 4 * HOUR) },
    });
    expect(moved.status).toBe(200);
    expect(moved.json.maintenance).toMatchObject({
      _id: id,
      title: 'Disk swap (moved)',
      description: 'A planned pause.',
      startsAt: iso(now + 3 * HOUR),
      state: 'scheduled',
    });
    expect((await listed()).find((m) => m._id === id)).toMatchObject({ title: 'Disk swap (moved)', endsAt: iso(now + 4 * HOUR) });
    const [notice] = await waitForMail(t, email, 'Maintenance rescheduled: Disk swap (moved)');
    expect(notice!.text).toContain(
      `${iso(now + 3 * HOUR)
        .slice(0, 16)
        .replace('T', ' ')} UTC`,
    );
    await audited(id, 'PUT /api/status/maintenance/:id');

    const done = await schedule('Already done', now - 3 * HOUR, now - 2 * HOUR);
    const late = await call(t, 'PUT', `/api/status/maintenance/${done}`, { token: staff.token, body: { title: 'Rewriting history' } });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('CONFLICT');
  });

  it('lets staff cancel a window: gone from the page and the feed, subscribers told, a second cancel or an edit refused', async () => {
    const now = Date.now();
    const id = await schedule('Network move', now + HOUR, now + 2 * HOUR);
    const user = await registerUser(t);
    expect((await call(t, 'POST', `/api/status/maintenance/${id}/cancel`, { token: user.token })).status).toBe(403);
    expect((await listed()).map((m) => m._id)).toContain(id);
    expect(await feed()).toContain('Scheduled maintenance: Network move');

    const cancelled = await call(t, 'POST', `/api/status/maintenance/${id}/cancel`, { token: staff.token });
    expect(cancelled.status).toBe(204);
    expect((await listed()).map((m) => m._id)).not.toContain(id);
    expect(await feed()).not.toContain('Network move');
    const [notice] = await waitForMail(t, email, 'Maintenance cancelled: Network move');
    expect(notice!.text).toContain('will not take place');
    await audited(id, 'POST /api/status/maintenance/:id/cancel');

    const again = await call(t, 'POST', `/api/status/maintenance/${id}/cancel`, { token: staff.token });
    expect(again.status).toBe(409);
    expect((await call(t, 'PUT', `/api/status/maintenance/${id}`, { token: staff.token, body: { title: 'Back again' } })).status).toBe(409);
    const done = await schedule('Finished earlier', now - 3 * HOUR, now - 2 * HOUR);
    expect((await call(t, 'POST', `/api/status/maintenance/${done}/cancel`, { token: staff.token })).status).toBe(409);
  });
});
