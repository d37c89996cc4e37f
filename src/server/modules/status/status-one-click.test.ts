import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { linkToken } from '#server/test/mailbox.js';
import { headerFields, TestSmtp, textPart, until, type Received } from '#server/test/smtp.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

const PUBLIC_URL = 'https://olympus.example';
const ONE_CLICK = /^<(https:\/\/olympus\.example\/api\/status\/subscriptions\/unsubscribe\?token=[A-Za-z0-9_%.-]+)>$/;

/**
 * Status notices carry RFC 8058 one-click unsubscribe (docs/decisions/0194), checked on the messages a
 * real SMTP server receives: the headers are there, a form POST of `List-Unsubscribe=One-Click` to the
 * URL (no session, no CSRF token, nothing else) ends the subscription, and a GET of it (a person, or a
 * mail scanner prefetching links) changes nothing and leads to the page that asks for a click.
 */
describe.each(enginesFor('logic'))('status notices: one-click unsubscribe over SMTP (%s)', (engine) => {
  const smtp = new TestSmtp();
  let t: TestApp;
  let staff: { token: string };
  let n = 0;
  const address = (name: string) => `${name}-${engine}-${Date.now().toString(36)}-${(n += 1)}@example.com`;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(engine, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Olympus Test <robot@olympus.example>',
      PUBLIC_URL,
      RATE_LIMITS: '0',
      MAIL_RETRY_DELAY_SECONDS: '1',
    });
    const account = await registerUser(t);
    await setRole(t.database.db, account.userId, 'support');
    staff = account;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  const subject = (m: Received) => headerFields(m.raw).subject ?? '';
  const received = (email: string, title: string, count = 1) =>
    until(`"${title}" to ${email}`, () => {
      const found = smtp.to(email).filter((m) => subject(m) === title);
      return found.length >= count ? found : null;
    });

  async function subscribeAndConfirm(email: string): Promise<void> {
    expect((await call(t, 'POST', '/api/status/subscriptions', { body: { email } })).status).toBe(202);
    const [confirmation] = await received(email, 'Confirm your Olympus status subscription');
    const token = linkToken({ text: textPart(confirmation!.raw) }, '/status/confirm');
    expect((await call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token } })).status).toBe(200);
  }

  async function subscribed(email: string): Promise<boolean> {
    const rows = await t.database.db.execute(sql`SELECT 1 FROM status_subscribers WHERE email = ${email} AND confirmed_at IS NOT NULL`);
    return rows.rows.length === 1;
  }

  /** The List-Unsubscribe URL of a message, and the same path on the test server. */
  function oneClickUrl(message: Received): { listUrl: string; local: string } {
    const listUrl = ONE_CLICK.exec(headerFields(message.raw)['list-unsubscribe'] ?? '')?.[1];
    expect(listUrl, headerFields(message.raw)['list-unsubscribe']).toBeDefined();
    const url = new URL(listUrl!);
    return { listUrl: listUrl!, local: `${t.url}${url.pathname}${url.search}` };
  }

  const oneClickPost = (url: string, body = 'List-Unsubscribe=One-Click') =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

  it('each notice carries List-Unsubscribe and List-Unsubscribe-Post; a GET of the URL changes nothing, the one-click POST unsubscribes that address only', async () => {
    const email = address('one-click');
    const other = address('stays');
    await subscribeAndConfirm(email);
    await subscribeAndConfirm(other);

    const created = await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: 'Swaps delayed', message: 'We are on it.' },
    });
    expect(created.status).toBe(201);
    const [notice] = await received(email, 'Incident: Swaps delayed');
    const headers = headerFields(notice!.raw);
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const { listUrl, local } = oneClickUrl(notice!);
    // The token in the header is the one of the visible link (which opens the page) for the same address.
    const pageToken = linkToken({ text: textPart(notice!.raw) }, '/status/unsubscribe');
    expect(new URL(listUrl).searchParams.get('token')).toBe(pageToken);

    // A GET (a scanner, or a person opening it) only leads to the page that asks for a click.
    const opened = await fetch(local, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/status/unsubscribe?token=${encodeURIComponent(pageToken)}`);
    expect(await subscribed(email)).toBe(true);

    // The one-click POST: a form with nothing but List-Unsubscribe=One-Click, no session, no CSRF token.
    const oneClick = await oneClickPost(local);
    expect(oneClick.status).toBe(200);
    expect(((await oneClick.json()) as { message: string }).message).toBe('Unsubscribed: this address gets no more status notices.');
    expect(await subscribed(email)).toBe(false);
    expect(await subscribed(other)).toBe(true);
    // Mail clients may retry: a second POST still succeeds.
    expect((await oneClickPost(local)).status).toBe(200);

    // The next notice reaches the other subscriber, not the one who left.
    await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: 'After one click', message: 'Only one of you hears this.' },
    });
    await received(other, 'Incident: After one click');
    expect(smtp.to(email).filter((m) => subject(m) === 'Incident: After one click')).toHaveLength(0);
  });

  it('refuses a one-click POST with a forged, altered or missing token, and unsubscribes no one', async () => {
    const email = address('forged');
    await subscribeAndConfirm(email);
    await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: {
        title: 'Node upgrade',
        description: 'A short pause.',
        startsAt: new Date(Date.now() + 3600_000).toISOString(),
        endsAt: new Date(Date.now() + 7200_000).toISOString(),
      },
    });
    const [notice] = await received(email, 'Scheduled maintenance: Node upgrade');
    const { local } = oneClickUrl(notice!);
    const url = new URL(local);
    const token = url.searchParams.get('token')!;
    const withToken = (value: string | null) => {
      const copy = new URL(local);
      if (value === null) copy.searchParams.delete('token');
      else copy.searchParams.set('token', value);
      return copy.toString();
    };

    expect((await oneClickPost(withToken(`${token.slice(0, -3)}abc`))).status).toBe(400);
    // A confirmation token is not an unsubscribe token.
    const [confirmation] = smtp.to(email).filter((m) => subject(m) === 'Confirm your Olympus status subscription');
    expect((await oneClickPost(withToken(linkToken({ text: textPart(confirmation!.raw) }, '/status/confirm')))).status).toBe(400);
    const missing = await oneClickPost(withToken(null));
    expect(missing.status).toBe(400);
    expect(await subscribed(email)).toBe(true);

    // The page's own button still sends the token as JSON.
    expect((await call(t, 'POST', '/api/status/subscriptions/unsubscribe', { body: { token } })).status).toBe(200);
    expect(await subscribed(email)).toBe(false);
  });
});
