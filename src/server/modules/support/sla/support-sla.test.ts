import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailService } from '#server/modules/mail/mail.service.js';
import { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { tickets } from '../tickets/tickets.tables.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import type { BusinessCalendar } from '../hours/business-hours.js';
import { recordSlaBreaches } from './breach-job.js';
import { clockState } from './sla-state.js';
import { supportSlaBreaches } from './support-sla.tables.js';

/** SLA targets in business hours (docs/decisions/0293): the admin API, the queue's state, the breach notices. */

const UTC_WEEK: BusinessCalendar = { timeZone: 'UTC', days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 1020, holidays: [] };

describe('an SLA clock', () => {
  const friday4pm = new Date('2026-01-09T16:00:00Z');
  it('counts business time left across the weekend, and says breached once due passes', () => {
    // 2 business hours from Friday 16:00: one on Friday, one on Monday from 09:00.
    const saturday = new Date('2026-01-10T12:00:00Z');
    expect(clockState(UTC_WEEK, friday4pm, 120, null, saturday)).toEqual({
      state: 'running',
      dueAt: '2026-01-12T10:00:00.000Z',
      businessMsLeft: 60 * 60_000,
    });
    expect(clockState(UTC_WEEK, friday4pm, 120, null, new Date('2026-01-12T10:00:00Z'))).toMatchObject({
      state: 'breached',
      businessMsLeft: 0,
    });
  });
  it('is met when done by the due instant and breached when done later; no target, no clock', () => {
    expect(clockState(UTC_WEEK, friday4pm, 120, new Date('2026-01-12T09:59:00Z'), new Date('2026-02-01T00:00:00Z'))?.state).toBe('met');
    expect(clockState(UTC_WEEK, friday4pm, 120, new Date('2026-01-12T10:01:00Z'), new Date('2026-02-01T00:00:00Z'))?.state).toBe(
      'breached',
    );
    expect(clockState(UTC_WEEK, friday4pm, null, null, new Date())).toBeNull();
  });
});

describe.each(enginesFor('database'))('support SLA on %s', { timeout: 60_000 }, (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string; username: string };
  let support2: { token: string; userId: string; username: string };
  let admin: { token: string; userId: string; username: string };
  let user: { token: string; userId: string; username: string };
  let notifications: NotificationsService;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    support2 = await registerUser(t);
    await setRole(t.database.db, support2.userId, 'support');
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    user = await registerUser(t);
    const mail = new MailService({ database: t.database, config: t.config, jobs: t.app.jobs, log: t.app.log });
    notifications = new NotificationsService({ database: t.database, jobs: t.app.jobs, mail, log: t.app.log });
  });
  afterAll(async () => {
    await t?.close();
  });

  const calendar = { timeZone: 'UTC', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };

  /** A user's ticket opened at `createdAt` (the row is moved back in time, as the API cannot). */
  async function ticketOpenedAt(createdAt: string, priority = 'high'): Promise<string> {
    const res = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { subject: `Deposit missing ${createdAt}`, category: 'payments', priority, message: 'Where is it?' },
    });
    expect(res.status).toBe(201);
    const id = res.json.ticket._id as string;
    await t.database.db
      .update(tickets)
      .set({ createdAt: new Date(createdAt) })
      .where(eq(tickets.id, id));
    return id;
  }

  describe('the admin API', () => {
    it('lets every staff member read, only admins write, and nobody else in', async () => {
      expect((await call(t, 'GET', '/api/staff/support/sla', { token: user.token })).status).toBe(403);
      const read = await call(t, 'GET', '/api/staff/support/sla', { token: support.token });
      expect(read.status).toBe(200);
      // What a new installation starts with (migration 0031).
      expect(read.json.calendar).toMatchObject({ timeZone: 'UTC', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' });
      expect(read.json.targets[0]).toEqual({ priority: 'urgent', firstResponseMinutes: 60, resolutionMinutes: 480 });

      const berlin = { timeZone: 'Europe/Berlin', days: [1, 2, 3, 4, 5, 6], start: '08:30', end: '18:00' };
      expect((await call(t, 'PUT', '/api/staff/support/sla/calendar', { token: support.token, body: berlin })).status).toBe(403);
      expect(
        (await call(t, 'POST', '/api/staff/support/sla/holidays', { token: support.token, body: { day: '2026-12-25', name: 'Christmas' } }))
          .status,
      ).toBe(403);
      expect(
        (
          await call(t, 'PUT', '/api/staff/support/sla/targets', {
            token: support.token,
            body: { targets: [{ priority: 'low', firstResponseMinutes: 1, resolutionMinutes: null }] },
          })
        ).status,
      ).toBe(403);
      expect((await call(t, 'PUT', '/api/staff/support/sla/calendar', { token: user.token, body: berlin })).status).toBe(403);

      const saved = await call(t, 'PUT', '/api/staff/support/sla/calendar', { token: admin.token, body: berlin });
      expect(saved.status).toBe(200);
      expect(saved.json.calendar).toMatchObject(berlin);
      expect((await call(t, 'GET', '/api/staff/support/sla', { token: support.token })).json.calendar).toMatchObject(berlin);
    });

    it('refuses an unknown zone, weekdays outside 1–7, times not HH:MM and a day with no working time', async () => {
      const bad = [
        { ...calendar, timeZone: 'Mars/Olympus' },
        { ...calendar, timeZone: 'CEST+1' },
        { ...calendar, days: [0, 1] },
        { ...calendar, days: [8] },
        { ...calendar, days: [] },
        { ...calendar, days: [1, 1] },
        { ...calendar, start: '9:00' },
        { ...calendar, end: '25:00' },
        { ...calendar, start: '17:00', end: '09:00' },
        { ...calendar, start: '09:00', end: '09:00' },
      ];
      for (const body of bad) {
        const res = await call(t, 'PUT', '/api/staff/support/sla/calendar', { token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await call(t, 'GET', '/api/staff/support/sla', { token: admin.token })).json.calendar.timeZone).toBe('Europe/Berlin');
    });

    it('adds and removes holidays, refuses a date twice and a bad date, and saves targets (none allowed)', async () => {
      const added = await call(t, 'POST', '/api/staff/support/sla/holidays', {
        token: admin.token,
        body: { day: '2026-12-25', name: 'Christmas Day' },
      });
      expect(added.status).toBe(200);
      expect(added.json.holidays).toEqual([{ day: '2026-12-25', name: 'Christmas Day' }]);
      expect(
        (await call(t, 'POST', '/api/staff/support/sla/holidays', { token: admin.token, body: { day: '2026-12-25', name: 'Again' } }))
          .status,
      ).toBe(409);
      expect(
        (await call(t, 'POST', '/api/staff/support/sla/holidays', { token: admin.token, body: { day: '2026-13-01', name: 'Nope' } }))
          .status,
      ).toBe(400);
      expect(
        (await call(t, 'POST', '/api/staff/support/sla/holidays', { token: admin.token, body: { day: '2026-12-31', name: '' } })).status,
      ).toBe(400);
      const removed = await call(t, 'DELETE', '/api/staff/support/sla/holidays/2026-12-25', { token: admin.token });
      expect(removed.status).toBe(200);
      expect(removed.json.holidays).toEqual([]);
      expect((await call(t, 'DELETE', '/api/staff/support/sla/holidays/2026-12-25', { token: admin.token })).status).toBe(404);

      const targets = await call(t, 'PUT', '/api/staff/support/sla/targets', {
        token: admin.token,
        body: { targets: [{ priority: 'low', firstResponseMinutes: 600, resolutionMinutes: null }] },
      });
      expect(targets.status).toBe(200);
      expect(targets.json.targets.find((x: { priority: string }) => x.priority === 'low')).toEqual({
        priority: 'low',
        firstResponseMinutes: 600,
        resolutionMinutes: null,
      });
      for (const bad of [
        { targets: [{ priority: 'low', firstResponseMinutes: 0, resolutionMinutes: null }] },
        { targets: [{ priority: 'low', firstResponseMinutes: 1.5, resolutionMinutes: null }] },
        { targets: [{ priority: 'low', firstResponseMinutes: '60', resolutionMinutes: null }] },
        { targets: [{ priority: 'whenever', firstResponseMinutes: 60, resolutionMinutes: null }] },
        {
          targets: [
            { priority: 'low', firstResponseMinutes: 60, resolutionMinutes: null },
            { priority: 'low', firstResponseMinutes: 60, resolutionMinutes: null },
          ],
        },
      ]) {
        expect(
          (await call(t, 'PUT', '/api/staff/support/sla/targets', { token: admin.token, body: bad })).status,
          JSON.stringify(bad),
        ).toBe(400);
      }
    });

    it('writes each change to the audit log with before and after', async () => {
      const rows = (
        await t.database.db.execute(sql`SELECT action, before, after FROM audit_log WHERE action LIKE 'support.%' ORDER BY created_at`)
      ).rows as Array<{ action: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }>;
      const calendarSaved = rows.find((r) => r.action === 'support.calendar_saved')!;
      expect(calendarSaved.before).toMatchObject({ timeZone: 'UTC', start: '09:00' });
      expect(calendarSaved.after).toMatchObject({ timeZone: 'Europe/Berlin', start: '08:30' });
      expect(rows.find((r) => r.action === 'support.holiday_added')!.after).toEqual({ day: '2026-12-25', name: 'Christmas Day' });
      expect(rows.find((r) => r.action === 'support.holiday_removed')!.before).toEqual({ day: '2026-12-25', name: 'Christmas Day' });
      const targets = rows.find((r) => r.action === 'support.sla_targets_saved')!;
      expect(
        (targets.before!.targets as Array<{ priority: string; resolutionMinutes: number | null }>).find((x) => x.priority === 'low')!
          .resolutionMinutes,
      ).toBe(4800);
      expect(
        (targets.after!.targets as Array<{ priority: string; resolutionMinutes: number | null }>).find((x) => x.priority === 'low')!
          .resolutionMinutes,
      ).toBeNull();
    });
  });

  describe('the queue', () => {
    it('counts the due instants in business hours across a weekend and a holiday', async () => {
      expect((await call(t, 'PUT', '/api/staff/support/sla/calendar', { token: admin.token, body: calendar })).status).toBe(200);
      expect(
        (await call(t, 'POST', '/api/staff/support/sla/holidays', { token: admin.token, body: { day: '2026-01-12', name: 'Staff day' } }))
          .status,
      ).toBe(200);
      expect(
        (
          await call(t, 'PUT', '/api/staff/support/sla/targets', {
            token: admin.token,
            body: { targets: [{ priority: 'high', firstResponseMinutes: 120, resolutionMinutes: 600 }] },
          })
        ).status,
      ).toBe(200);
      // Opened Friday 16:00: one business hour on Friday, nothing on the weekend or on Monday's holiday.
      const id = await ticketOpenedAt('2026-01-09T16:00:00Z');

      const queue = await call(t, 'GET', '/api/staff/tickets?search=2026-01-09T16', { token: support.token });
      expect(queue.status).toBe(200);
      const row = queue.json.tickets.find((x: { _id: string }) => x._id === id);
      // First response: 1 h on Friday + 1 h on Tuesday. Resolution: 1 h Friday + 8 h Tuesday + 1 h Wednesday.
      expect(row.sla).toEqual({
        firstResponse: { state: 'breached', dueAt: '2026-01-13T10:00:00.000Z', businessMsLeft: 0 },
        resolution: { state: 'breached', dueAt: '2026-01-14T10:00:00.000Z', businessMsLeft: 0 },
      });
      const view = await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token });
      expect(view.json.ticket.sla).toEqual(row.sla);
      // The requester never sees it.
      expect((await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).json.ticket.sla).toBeUndefined();

      // "Breached" finds it; a ticket just opened with a target days away is neither breached nor due soon.
      const fresh = await call(t, 'POST', '/api/tickets', {
        token: user.token,
        body: { subject: 'Fresh low ticket', category: 'general', priority: 'low', message: 'Hello' },
      });
      const breached = await call(t, 'GET', '/api/staff/tickets?sla=breached&pageSize=100', { token: support.token });
      const ids = breached.json.tickets.map((x: { _id: string }) => x._id);
      expect(ids).toContain(id);
      expect(ids).not.toContain(fresh.json.ticket._id);
      expect(
        (await call(t, 'GET', '/api/staff/tickets?sla=due_soon&pageSize=100', { token: support.token })).json.tickets.map(
          (x: { _id: string }) => x._id,
        ),
      ).not.toContain(id);
      expect((await call(t, 'GET', '/api/staff/tickets?sla=whenever', { token: support.token })).status).toBe(400);

      // Answered and resolved: no longer in the breached filter, its clocks say when they were due.
      expect(
        (await call(t, 'POST', `/api/staff/tickets/${id}/messages`, { token: support.token, body: { message: 'Looking at it' } })).status,
      ).toBe(201);
      expect((await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: support.token, body: { status: 'resolved' } })).status).toBe(200);
      const after = await call(t, 'GET', '/api/staff/tickets?sla=breached&pageSize=100', { token: support.token });
      expect(after.json.tickets.map((x: { _id: string }) => x._id)).not.toContain(id);
    });
  });

  describe('breach notices', () => {
    const noticesFor = async (token: string, ticketId: string) =>
      (
        (await call(t, 'GET', '/api/notifications?limit=100', { token })).json.notifications as Array<{
          event: string;
          link: string;
          title: string;
        }>
      ).filter((n) => n.link.includes(ticketId));

    it('tell the assignee once per target, however often the job runs (two at once too)', async () => {
      const id = await ticketOpenedAt('2026-02-02T09:00:00Z');
      expect((await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: admin.token, body: { assigneeId: support.userId } })).status).toBe(
        200,
      );
      await Promise.all([recordSlaBreaches(t.database, notifications), recordSlaBreaches(t.database, notifications)]);
      await recordSlaBreaches(t.database, notifications);

      const mine = await noticesFor(support.token, id);
      expect(mine.map((n) => n.event).sort()).toEqual(['ticket.sla_breached', 'ticket.sla_breached']);
      expect(mine[0]!.link).toBe(`/dashboard/staff/tickets/${id}`);
      expect(mine.map((n) => n.title)).toContain(
        `SLA breached on ticket #${(await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token })).json.ticket.number}`,
      );
      expect(await noticesFor(support2.token, id)).toEqual([]);
      expect(await noticesFor(admin.token, id)).toEqual([]);
      const rows = await t.database.db.select().from(supportSlaBreaches).where(eq(supportSlaBreaches.ticketId, id));
      expect(rows.map((r) => r.kind).sort()).toEqual(['first_response', 'resolution']);
    });

    it('tell every support and admin account when nobody is assigned, never the requester', async () => {
      const id = await ticketOpenedAt('2026-02-03T09:00:00Z', 'urgent');
      await recordSlaBreaches(t.database, notifications);
      await recordSlaBreaches(t.database, notifications);
      for (const staff of [support, support2, admin]) expect((await noticesFor(staff.token, id)).length).toBe(2);
      expect(await noticesFor(user.token, id)).toEqual([]);
    });

    it('are written in each staff member’s own language (users.locale), English without one', async () => {
      await t.database.db.execute(sql`UPDATE users SET locale = 'ru' WHERE id = ${support2.userId}`);
      await t.database.db.execute(sql`UPDATE users SET locale = 'de' WHERE id = ${admin.userId}`);
      try {
        const id = await ticketOpenedAt('2026-02-04T09:00:00Z', 'urgent');
        await recordSlaBreaches(t.database, notifications);
        const number = (await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token })).json.ticket.number as number;
        const bodiesOf = async (token: string) =>
          (
            (await call(t, 'GET', '/api/notifications?limit=100', { token })).json.notifications as Array<{
              link: string;
              title: string;
              body: string;
            }>
          ).filter((n) => n.link.includes(id));
        const subject = `Deposit missing 2026-02-04T09:00:00Z`;
        expect((await bodiesOf(support.token)).map((n) => [n.title, n.body]).sort()).toEqual([
          [`SLA breached on ticket #${number}`, `The first response target of "${subject}" passed without it.`],
          [`SLA breached on ticket #${number}`, `The resolution target of "${subject}" passed without it.`],
        ]);
        expect((await bodiesOf(support2.token)).map((n) => [n.title, n.body]).sort()).toEqual([
          [`Нарушен SLA по обращению №${number}`, `Срок первого ответа по «${subject}» истёк без ответа.`],
          [`Нарушен SLA по обращению №${number}`, `Срок решения по «${subject}» истёк без решения.`],
        ]);
        expect((await bodiesOf(admin.token)).map((n) => n.title)).toEqual([
          `SLA verletzt bei Ticket #${number}`,
          `SLA verletzt bei Ticket #${number}`,
        ]);
      } finally {
        await t.database.db.execute(sql`UPDATE users SET locale = NULL WHERE id IN (${support2.userId}, ${admin.userId})`);
      }
    });

    it('are listed in the preferences matrix of staff only', async () => {
      const events = async (token: string) =>
        ((await call(t, 'GET', '/api/users/notification-preferences', { token })).json.matrix as Array<{ event: string }>).map(
          (r) => r.event,
        );
      expect(await events(support.token)).toContain('ticket.sla_breached');
      expect(await events(user.token)).not.toContain('ticket.sla_breached');
      expect(await events(user.token)).toContain('ticket.reply');
    });
  });
});
