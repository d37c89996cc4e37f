import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { nearestRank } from './support-reports.service.js';

/**
 * Support desk reports (decision 0295). The tickets are written in SQL with their timestamps, so every
 * figure is known: the desk's default calendar is Monday to Friday, 09:00–17:00 UTC, and the default
 * targets (business minutes, first response / resolution) are urgent 60/480, high 240/960,
 * normal 480/2400, low 960/4800. The range is 2026-03-02 (a Monday) to 2026-03-15: ISO weeks 10 and 11.
 */

describe('nearest-rank percentile', () => {
  it('answers a value some ticket had: the lower middle for an even count', () => {
    expect(nearestRank([10, 30, 60, 75, 180], 50)).toBe(60);
    expect(nearestRank([10, 30, 60, 75, 180], 90)).toBe(180);
    expect(nearestRank([20, 240, 480, 510], 50)).toBe(240);
    expect(nearestRank([7], 90)).toBe(7);
    expect(nearestRank([], 50)).toBeNull();
  });
});

type Att = { met: number; counted: number; percent: number | null };

describe.each(enginesFor('database'))('support reports on %s', (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string; username: string };
  let admin: { token: string; userId: string; username: string };
  let user: { token: string; userId: string; username: string };

  interface Row {
    created: string;
    priority: string;
    status: string;
    firstResponse?: string;
    closed?: string;
    assignee?: string;
    rating?: number;
    tags?: string[];
    mergedInto?: string;
  }
  async function insert(r: Row): Promise<string> {
    const tags = `{${(r.tags ?? []).map((x) => `"${x.replace(/"/g, '\\"')}"`).join(',')}}`;
    const res = await t.database.db.execute<{ id: string }>(sql`
      INSERT INTO tickets (user_id, subject, category, priority, status, assigned_to, created_at, updated_at, last_message_at,
                           first_response_at, closed_at, rating, rated_at, tags, merged_into)
      VALUES (${user.userId}, 'Report fixture', 'other', ${r.priority}, ${r.status}, ${r.assignee ?? null},
              ${r.created}::timestamptz, ${r.created}::timestamptz, ${r.created}::timestamptz,
              ${r.firstResponse ?? null}::timestamptz, ${r.closed ?? null}::timestamptz,
              ${r.rating ?? null}::integer, ${r.rating ? (r.closed ?? null) : null}::timestamptz, ${tags}::text[], ${r.mergedInto ?? null}::uuid)
      RETURNING id`);
    return res.rows[0]!.id;
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    user = await registerUser(t);

    // Week 10 (from Monday 2 March).
    const t1 = await insert({
      created: '2026-03-02T09:00Z',
      firstResponse: '2026-03-02T09:30Z',
      closed: '2026-03-02T13:00Z',
      status: 'resolved',
      priority: 'normal',
      assignee: support.userId,
      rating: 5,
      tags: ['billing'],
    });
    // Resolved the next morning: 7 h on Monday and 1 h on Tuesday = 480 business minutes.
    await insert({
      created: '2026-03-02T10:00Z',
      firstResponse: '2026-03-02T11:00Z',
      closed: '2026-03-03T10:00Z',
      status: 'closed',
      priority: 'normal',
      assignee: support.userId,
      rating: 4,
      tags: ['billing', 'refund'],
    });
    // Urgent on Friday 16:30, answered Monday 09:45: 75 business minutes across the weekend (65 h on the clock), over its 60.
    // Resolved Monday 17:00: 30 + 480 = 510 business minutes, over its 480.
    await insert({
      created: '2026-03-06T16:30Z',
      firstResponse: '2026-03-09T09:45Z',
      closed: '2026-03-09T17:00Z',
      status: 'resolved',
      priority: 'urgent',
      assignee: admin.userId,
      rating: 2,
      tags: ['=sum(1,2)'],
    });
    // High on Friday 15:00, answered Monday 10:00: 120 + 60 = 180 business minutes, within its 240 (67 h on the clock).
    // Still pending, long past its 960-minute resolution target: missed.
    await insert({
      created: '2026-03-06T15:00Z',
      firstResponse: '2026-03-09T10:00Z',
      status: 'pending',
      priority: 'high',
      assignee: admin.userId,
    });
    // Week 11. Low, never answered, still open: both targets long passed, both missed.
    await insert({ created: '2026-03-10T09:00Z', status: 'open', priority: 'low' });
    await insert({
      created: '2026-03-11T12:00Z',
      firstResponse: '2026-03-11T12:10Z',
      closed: '2026-03-11T12:20Z',
      status: 'closed',
      priority: 'normal',
      rating: 3,
      tags: ['billing'],
    });

    // Left out of every figure: merged into another, created just before and just after the range.
    await insert({
      created: '2026-03-03T09:00Z',
      firstResponse: '2026-03-03T09:01Z',
      closed: '2026-03-03T09:02Z',
      status: 'closed',
      priority: 'normal',
      rating: 1,
      tags: ['billing'],
      mergedInto: t1,
    });
    await insert({ created: '2026-03-01T23:59:59Z', status: 'open', priority: 'urgent', tags: ['billing'] });
    await insert({ created: '2026-03-16T00:00Z', status: 'open', priority: 'urgent', tags: ['billing'] });
    // Opened before the range, resolved in week 10: counts in that week's "resolved", nowhere else.
    await insert({
      created: '2026-02-27T10:00Z',
      firstResponse: '2026-02-27T10:05Z',
      closed: '2026-03-04T10:00Z',
      status: 'resolved',
      priority: 'normal',
      rating: 1,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const report = async (query: string, token = support.token) => call(t, 'GET', `/api/staff/support/report?${query}`, { token });

  it('counts, times and SLA attainment in business hours, per priority', async () => {
    const res = await report('from=2026-03-02&to=2026-03-15');
    expect(res.status).toBe(200);
    const r = res.json;
    expect(r.tickets).toBe(6);
    expect(r.resolved).toBe(4);
    // First responses 10, 30, 60, 75, 180: median (rank 3 of 5) 60, p90 (rank 5) 180.
    expect(r.firstResponse).toEqual({ count: 5, medianMinutes: 60, p90Minutes: 180 });
    // Resolutions 20, 240, 480, 510: median (rank 2 of 4) 240, p90 (rank 4) 510.
    expect(r.resolution).toEqual({ count: 4, medianMinutes: 240, p90Minutes: 510 });
    // First response: the urgent one (75 > 60) and the unanswered low one missed.
    expect(r.sla.firstResponse).toEqual({ met: 4, counted: 6, percent: 66.7 });
    // Resolution: the urgent one (510 > 480), the pending high one and the open low one missed.
    expect(r.sla.resolution).toEqual({ met: 3, counted: 6, percent: 50 });
    const byPriority = Object.fromEntries(
      (r.sla.byPriority as Array<{ priority: string; tickets: number; firstResponse: Att; resolution: Att }>).map((p) => [p.priority, p]),
    );
    expect(Object.keys(byPriority)).toEqual(['urgent', 'high', 'normal', 'low']);
    expect(byPriority.urgent).toMatchObject({
      tickets: 1,
      firstResponse: { met: 0, counted: 1, percent: 0 },
      resolution: { met: 0, counted: 1, percent: 0 },
    });
    // Across the weekend and still within target: met.
    expect(byPriority.high).toMatchObject({
      tickets: 1,
      firstResponse: { met: 1, counted: 1, percent: 100 },
      resolution: { met: 0, counted: 1 },
    });
    expect(byPriority.normal).toMatchObject({
      tickets: 3,
      firstResponse: { met: 3, counted: 3 },
      resolution: { met: 3, counted: 3, percent: 100 },
    });
    expect(byPriority.low).toMatchObject({ tickets: 1, firstResponse: { met: 0, counted: 1 }, resolution: { met: 0, counted: 1 } });
  });

  it('breaks the tickets down by tag, assignee, rating and ISO week', async () => {
    const r = (await report('from=2026-03-02&to=2026-03-15')).json;
    expect(r.byTag[0]).toEqual({ tag: 'billing', tickets: 3 });
    expect(r.byTag).toEqual(
      expect.arrayContaining([
        { tag: 'refund', tickets: 1 },
        { tag: '=sum(1,2)', tickets: 1 },
      ]),
    );
    expect(r.byTag).toHaveLength(4);
    expect(r.byTag.at(-1)).toEqual({ tag: null, tickets: 2 });

    expect(r.byAssignee).toEqual(
      [
        {
          assigneeId: support.userId,
          name: support.username,
          tickets: 2,
          firstResponseMedianMinutes: 30,
          resolved: 2,
          ratings: 2,
          averageRating: 4.5,
        },
        {
          assigneeId: admin.userId,
          name: admin.username,
          tickets: 2,
          firstResponseMedianMinutes: 75,
          resolved: 1,
          ratings: 1,
          averageRating: 2,
        },
        { assigneeId: null, name: null, tickets: 2, firstResponseMedianMinutes: 10, resolved: 1, ratings: 1, averageRating: 3 },
      ].sort((a, b) => (a.assigneeId === null ? 1 : b.assigneeId === null ? -1 : a.name!.localeCompare(b.name!))),
    );

    expect(r.ratings).toEqual({
      count: 4,
      average: 3.5,
      stars: [
        { stars: 1, count: 0 },
        { stars: 2, count: 1 },
        { stars: 3, count: 1 },
        { stars: 4, count: 1 },
        { stars: 5, count: 1 },
      ],
    });

    expect(r.weeks).toEqual([
      // Opened 4; resolved 3 (two of its own and the one opened in February).
      {
        weekStart: '2026-03-02',
        isoWeek: '2026-W10',
        opened: 4,
        resolved: 3,
        firstResponseMedianMinutes: 60,
        firstResponse: { met: 3, counted: 4, percent: 75 },
        resolution: { met: 2, counted: 4, percent: 50 },
      },
      {
        weekStart: '2026-03-09',
        isoWeek: '2026-W11',
        opened: 2,
        resolved: 2,
        firstResponseMedianMinutes: 10,
        firstResponse: { met: 1, counted: 2, percent: 50 },
        resolution: { met: 1, counted: 2, percent: 50 },
      },
    ]);
  });

  it('does not count an open ticket still within its target, nor the first response of one closed unanswered', async () => {
    // From yesterday to today (UTC): a ticket made "2 minutes ago" just after midnight was made yesterday.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await t.database.db.execute(sql`
      INSERT INTO tickets (user_id, subject, category, priority, status, created_at)
      VALUES (${user.userId}, 'Just asked', 'other', 'low', 'open', now() - interval '1 minute')`);
    let r = (await report(`from=${yesterday}&to=${today}`)).json;
    expect(r.tickets).toBe(1);
    expect(r.sla.firstResponse).toEqual({ met: 0, counted: 0, percent: null });
    expect(r.sla.resolution).toEqual({ met: 0, counted: 0, percent: null });
    expect(r.firstResponse).toEqual({ count: 0, medianMinutes: null, p90Minutes: null });
    expect(r.byTag).toEqual([{ tag: null, tickets: 1 }]);

    // Withdrawn by the requester a minute later, never answered: resolved within target, no first response to judge.
    await t.database.db.execute(sql`
      INSERT INTO tickets (user_id, subject, category, priority, status, created_at, closed_at)
      VALUES (${user.userId}, 'Never mind', 'other', 'urgent', 'closed', now() - interval '2 minutes', now() - interval '1 minute')`);
    r = (await report(`from=${yesterday}&to=${today}`)).json;
    expect(r.tickets).toBe(2);
    expect(r.sla.firstResponse).toEqual({ met: 0, counted: 0, percent: null });
    expect(r.sla.resolution).toEqual({ met: 1, counted: 1, percent: 100 });
  });

  it('is for support and admin only', async () => {
    expect((await report('from=2026-03-02&to=2026-03-15', user.token)).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/support/report.csv?from=2026-03-02&to=2026-03-15', { token: user.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/support/report?from=2026-03-02&to=2026-03-15')).status).toBe(401);
    expect((await report('from=2026-03-02&to=2026-03-15', admin.token)).json.tickets).toBe(6);
  });

  it('refuses a range that is inverted, too long or not made of dates', async () => {
    const inverted = await report('from=2026-03-15&to=2026-03-02');
    expect(inverted.status).toBe(400);
    expect(JSON.stringify(inverted.json)).toContain('The end date must not be before the start date');
    // 2024 is a leap year: 2024-01-01 to 2024-12-31 is 366 days, one more is refused.
    expect((await report('from=2024-01-01&to=2024-12-31')).status).toBe(200);
    const tooLong = await report('from=2024-01-01&to=2025-01-01');
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.json)).toContain('at most 366 days');
    expect((await report('from=2026-02-30&to=2026-03-15')).status).toBe(400);
    expect((await report('from=yesterday&to=2026-03-15')).status).toBe(400);
    expect((await report('from=2026-03-02')).status).toBe(400);
    expect((await call(t, 'GET', '/api/staff/support/report.csv?from=2026-03-15&to=2026-03-02', { token: support.token })).status).toBe(
      400,
    );
  });

  it('exports one CSV table, a tag that looks like a formula made inert', async () => {
    const res = await fetch(`${t.url}/api/staff/support/report.csv?from=2026-03-02&to=2026-03-15`, {
      headers: { authorization: `Bearer ${support.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="olympus-support-report-2026-03-02-to-2026-03-15.csv"');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'section,key,tickets,resolved,first_response_median_minutes,first_response_met,first_response_with_target,first_response_attainment_pct,resolution_met,resolution_with_target,resolution_attainment_pct,average_rating',
    );
    expect(lines[1]).toBe('total,2026-03-02..2026-03-15,6,4,60.0,4,6,66.7,3,6,50,3.5');
    expect(lines).toContain('week,2026-03-02,4,3,60.0,3,4,75,2,4,50,');
    expect(lines).toContain('week,2026-03-09,2,2,10.0,1,2,50,1,2,50,');
    expect(lines).toContain('priority,urgent,1,,,0,1,0,0,1,0,');
    expect(lines).toContain(`assignee,${support.username},2,2,30.0,,,,,,,4.5`);
    expect(lines).toContain('assignee,(unassigned),2,1,10.0,,,,,,,3');
    expect(lines).toContain('tag,billing,3,,,,,,,,,');
    // Quoted for its comma, and an apostrophe first so a spreadsheet shows it as text.
    expect(lines).toContain(`tag,"'=sum(1,2)",1,,,,,,,,,`);
    expect(lines).toContain('tag,(untagged),2,,,,,,,,,');
    // Header, total, 2 weeks, 4 priorities, 3 assignees, 4 tags.
    expect(lines).toHaveLength(1 + 1 + 2 + 4 + 3 + 4);
  });
});
