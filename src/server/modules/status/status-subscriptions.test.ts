import { sql } from 'drizzle-orm';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { linkToken, mailTo, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { pruneDeadRows } from '#server/modules/maintenance/prune.js';

const HOUR = 3600_000;

describe.each(enginesFor('logic'))('status maintenance, subscriptions and feed on %s', (engine) => {
  let t: TestApp;
  let staff: { token: string; userId: string };
  let n = 0;
  const address = (name: string) => `${name}-${engine}-${Date.now().toString(36)}-${(n += 1)}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function subscribeAndConfirm(email: string) {
    const res = await call(t, 'POST', '/api/status/subscriptions', { body: { email } });
    expect(res.status).toBe(202);
    const [mail] = await waitForMail(t, email, 'Confirm your Olympus status subscription');
    expect(mail!.text).toContain('https://olympus.example/status/confirm?token=');
    const confirmed = await call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token: linkToken(mail!, '/status/confirm') } });
    expect(confirmed.status).toBe(200);
  }

  it('lets staff schedule maintenance, shown as scheduled, in progress and completed; no one else may', async () => {
    const user = await registerUser(t);
    const now = Date.now();
    const body = (start: number, end: number, title: string) => ({
      title,
      description: 'Database upgrade <v17> & restart.',
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(end).toISOString(),
    });
    expect(
      (await call(t, 'POST', '/api/status/maintenance', { token: user.token, body: body(now + HOUR, now + 2 * HOUR, 'Nope') })).status,
    ).toBe(403);
    expect((await call(t, 'POST', '/api/status/maintenance', { body: body(now + HOUR, now + 2 * HOUR, 'Nope') })).status).toBe(401);
    const backwards = await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: body(now + 2 * HOUR, now + HOUR, 'Backwards'),
    });
    expect(backwards.status).toBe(400);

    const later = await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: body(now + HOUR, now + 2 * HOUR, 'Upgrade later'),
    });
    expect(later.status).toBe(201);
    expect(later.json.maintenance).toMatchObject({
      title: 'Upgrade later',
      state: 'scheduled',
      startsAt: new Date(now + HOUR).toISOString(),
    });
    await call(t, 'POST', '/api/status/maintenance', { token: staff.token, body: body(now - HOUR, now + HOUR, 'Upgrade now') });
    await call(t, 'POST', '/api/status/maintenance', { token: staff.token, body: body(now - 3 * HOUR, now - 2 * HOUR, 'Upgrade done') });
    await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: body(now - 9 * 24 * HOUR, now - 8 * 24 * HOUR, 'Upgrade long ago'),
    });

    const status = await call(t, 'GET', '/api/status');
    const byTitle = Object.fromEntries((status.json.maintenance as { title: string; state: string }[]).map((m) => [m.title, m.state]));
    expect(byTitle).toMatchObject({ 'Upgrade later': 'scheduled', 'Upgrade now': 'in_progress', 'Upgrade done': 'completed' });
    expect(byTitle['Upgrade long ago']).toBeUndefined();
  });

  it('confirms a subscription by mail before any notice, then mails new incidents, updates, resolution and maintenance, each with a working unsubscribe link', async () => {
    const email = address('subscriber');
    const pending = address('pending');
    await call(t, 'POST', '/api/status/subscriptions', { body: { email: pending } });
    await waitForMail(t, pending, 'Confirm your Olympus status subscription');
    await subscribeAndConfirm(email);

    const incident = await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: 'Swaps <delayed>', impact: 'major', components: ['swap-provider'], message: 'The provider is slow & we are on it.' },
    });
    expect(incident.status).toBe(201);
    const [notice] = await waitForMail(t, email, 'Incident: Swaps <delayed>');
    expect(notice!.text).toContain('The provider is slow & we are on it.');
    // Plain text escaped in the HTML part.
    expect(notice!.html).toContain('Swaps &lt;delayed&gt;');
    expect(notice!.html).not.toContain('<delayed>');

    await call(t, 'PUT', `/api/status/incidents/${incident.json.incident._id}`, { token: staff.token, body: { message: 'Catching up.' } });
    await waitForMail(t, email, 'Incident update: Swaps <delayed>');
    await call(t, 'PUT', `/api/status/incidents/${incident.json.incident._id}`, {
      token: staff.token,
      body: { status: 'resolved', message: 'All swaps went through.' },
    });
    await waitForMail(t, email, 'Resolved: Swaps <delayed>');
    await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: {
        title: 'Node upgrade',
        description: 'A short pause.',
        startsAt: new Date(Date.now() + HOUR).toISOString(),
        endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
      },
    });
    const [maintenance] = await waitForMail(t, email, 'Scheduled maintenance: Node upgrade');
    // The unconfirmed address got only its confirmation.
    await t.app.jobs.drain(); // every mail and fan-out job still due has run
    expect((await mailTo(t, pending)).map((m) => m.subject)).toEqual(['Confirm your Olympus status subscription']);

    const token = linkToken(maintenance!, '/status/unsubscribe');
    const forged = await call(t, 'POST', '/api/status/subscriptions/unsubscribe', { body: { token: `${token.slice(0, -3)}abc` } });
    expect(forged.status).toBe(400);
    expect((await call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token } })).status).toBe(400);
    const gone = await call(t, 'POST', '/api/status/subscriptions/unsubscribe', { body: { token } });
    expect(gone.status).toBe(200);
    expect((await call(t, 'POST', '/api/status/subscriptions/unsubscribe', { body: { token } })).status).toBe(200);

    const before = (await mailTo(t, email)).length;
    await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: 'After unsubscribing', message: 'Nobody should hear this.' },
    });
    await t.app.jobs.drain(); // every mail and fan-out job still due has run
    expect((await mailTo(t, email)).length).toBe(before);
  });

  it('answers the same whether or not an address is subscribed, and limits how often one may subscribe', async () => {
    const email = address('twice');
    await subscribeAndConfirm(email);
    const fresh = await call(t, 'POST', '/api/status/subscriptions', { body: { email: address('fresh') } });
    const again = await call(t, 'POST', '/api/status/subscriptions', { body: { email: email.toUpperCase() } });
    expect(again.status).toBe(fresh.status);
    expect(again.json).toEqual(fresh.json);
    await t.app.jobs.drain(); // every mail and fan-out job still due has run
    // A confirmed address gets no second confirmation mail.
    expect((await mailTo(t, email)).filter((m) => m.subject === 'Confirm your Olympus status subscription')).toHaveLength(1);
    expect((await call(t, 'POST', '/api/status/subscriptions', { body: { email: 'not an address' } })).status).toBe(400);

    const limited = await startTestApp(engine, {});
    try {
      const target = address('limited');
      const answers: number[] = [];
      for (let i = 0; i < 4; i++)
        answers.push((await call(limited, 'POST', '/api/status/subscriptions', { body: { email: target } })).status);
      expect(answers).toEqual([202, 202, 202, 429]);
    } finally {
      await limited.close();
    }
  });

  it('a confirmation link expires after 7 days with a clear message, subscribing again mails one that works, and the prune job deletes what was never confirmed', async () => {
    const CONFIRM = 'Confirm your Olympus status subscription';
    const db = t.database.db;
    const age = (email: string, interval: string) =>
      db.execute(sql`UPDATE status_subscribers SET created_at = now() - ${interval}::interval WHERE email = ${email}`);
    const confirmedAt = async (email: string) =>
      (await db.execute<{ confirmed_at: unknown }>(sql`SELECT confirmed_at FROM status_subscribers WHERE email = ${email}`)).rows.map(
        (r) => r.confirmed_at !== null,
      );
    const confirm = (token: string) => call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token } });
    const subscribe = async (email: string, count = 1) => {
      expect((await call(t, 'POST', '/api/status/subscriptions', { body: { email } })).status).toBe(202);
      // Newest first.
      return linkToken((await waitForMail(t, email, CONFIRM, count))[0]!, '/status/confirm');
    };

    // Submitted 7 days and a minute ago: refused, with the message the confirmation page shows.
    const late = address('late');
    const lateToken = await subscribe(late);
    expect((await mailTo(t, late))[0]!.text).toContain('The link works for 7 days; after that, subscribe again to get a new one.');
    await age(late, '7 days 1 minute');
    const refused = await confirm(lateToken);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: 'This link has expired. Subscribe again to get a new one.', code: 'TOKEN_EXPIRED' });
    expect(await confirmedAt(late)).toEqual([false]);

    // A link a little under 7 days old still works.
    const inTime = address('in-time');
    const inTimeToken = await subscribe(inTime);
    await age(inTime, '6 days 23 hours');
    expect((await confirm(inTimeToken)).status).toBe(200);
    expect(await confirmedAt(inTime)).toEqual([true]);

    // Subscribing again mails a new link, which works.
    const again = await subscribe(late, 2);
    expect((await confirm(again)).status).toBe(200);
    expect(await confirmedAt(late)).toEqual([true]);

    // A forged link is still "not valid", not "expired".
    expect((await confirm(`${again.slice(0, -3)}abc`)).json.code).toBe('TOKEN_INVALID');

    // The prune job deletes unconfirmed addresses past the window and nothing else (confirmed ones stay,
    // however old); their link then answers "expired" too.
    const stale = address('stale');
    const staleToken = await subscribe(stale);
    const pending = address('still-pending');
    await subscribe(pending);
    await age(stale, '8 days');
    await age(pending, '6 days');
    await age(inTime, '30 days');
    const pruned = await pruneDeadRows(db);
    expect(pruned.unconfirmedStatusSubscribers).toBeGreaterThanOrEqual(1);
    expect(await confirmedAt(stale)).toEqual([]);
    expect(await confirmedAt(pending)).toEqual([false]);
    expect(await confirmedAt(inTime)).toEqual([true]);
    expect(await confirmedAt(late)).toEqual([true]);
    const gone = await confirm(staleToken);
    expect(gone.status).toBe(400);
    expect(gone.json.error).toBe('This link has expired. Subscribe again to get a new one.');
  });

  it('serves incidents and maintenance as a valid, escaped Atom feed', async () => {
    await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: 'Feed <test> & "quotes"', message: 'Line <b>one</b> & more.' },
    });
    const res = await t.app.inject({ url: '/api/status/feed.atom' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.body).toContain('Feed &lt;test&gt; &amp; &quot;quotes&quot;');
    // A strict XML parser: malformed or badly escaped XML throws here.
    const doc = new JSDOM(res.body, { contentType: 'application/xml' }).window.document;
    const feed = doc.documentElement;
    expect(feed.namespaceURI).toBe('http://www.w3.org/2005/Atom');
    expect(feed.localName).toBe('feed');
    const entries = [...feed.getElementsByTagName('entry')].map((e) => ({
      title: e.getElementsByTagName('title')[0]!.textContent,
      summary: e.getElementsByTagName('summary')[0]!.textContent,
      id: e.getElementsByTagName('id')[0]!.textContent,
    }));
    const titles = entries.map((e) => e.title);
    expect(titles).toContain('Incident: Feed <test> & "quotes"');
    expect(titles).toContain('Scheduled maintenance: Upgrade later');
    expect(titles).toContain('Maintenance in progress: Upgrade now');
    const entry = entries.find((e) => e.title === 'Incident: Feed <test> & "quotes"')!;
    expect(entry.summary).toContain('Line <b>one</b> & more.');
    expect(entry.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  });
});
