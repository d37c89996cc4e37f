import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { linkToken, waitForMail, type SandboxMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

const PUBLIC_URL = 'https://olympus.example';

/**
 * decision 0130: tokens and links never appear in logs. Every email flow runs with the request log on at
 * its most talkative level, written to a captured stream; the tokens and links of the mails sent, and
 * the session tokens used, must appear nowhere in it, even when they travel in a URL's query string
 * (a link opened as is, a one-click unsubscribe, a client that puts the token in the query by mistake).
 */
describe.each(enginesFor('logic'))('no token or link from the email flows reaches the log (%s)', (engine) => {
  let t: TestApp;
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  const mails: SandboxMail[] = [];

  beforeAll(async () => {
    t = await startTestApp(
      engine,
      { PUBLIC_URL, RATE_LIMITS: '0', LOG_LEVEL: 'trace' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
  }, 180_000);
  afterAll(async () => t?.close());

  const log = () => lines.join('');
  function keep(name: string, value: string) {
    secrets.set(name, value);
  }
  async function mail(to: string, subject: string | RegExp): Promise<SandboxMail> {
    const [found] = await waitForMail(t, to, subject);
    mails.push(found!);
    return found!;
  }
  /** Opens a link the way a browser or mail client does, query string and all; the answer does not matter here. */
  async function open(url: string, method = 'GET') {
    const { pathname, search } = new URL(url);
    await fetch(`${t.url}${pathname}${search}`, { method });
  }
  function linkTo(m: SandboxMail, path: string): string {
    const match = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_%.-]+`).exec(m.text);
    if (!match) throw new Error(`no ${path} link in: ${m.text}`);
    return match[0];
  }

  it('register: the verification mail', async () => {
    const account = await registerUser(t);
    keep('session of the new account', account.token);
    const m = await mail(`${account.username}@example.com`, 'Confirm your email');
    const token = linkToken(m, '/verify-email');
    keep('verification token', token);
    await open(linkTo(m, '/verify-email'));
    // A client that sends the token in the query string too: refused, and still not logged.
    expect((await call(t, 'POST', `/api/auth/verify-email?token=${encodeURIComponent(token)}`, { body: {} })).status).toBe(400);
    await call(t, 'GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect((await call(t, 'POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
  });

  it('forgot password: the reset mail', async () => {
    const account = await registerUser(t);
    const email = `${account.username}@example.com`;
    expect((await call(t, 'POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(202);
    const m = await mail(email, 'Reset your password');
    const token = linkToken(m, '/reset-password');
    keep('reset token', token);
    await open(linkTo(m, '/reset-password'));
    // A refused attempt (password too short) carrying the token in its query and body.
    expect(
      (await call(t, 'POST', `/api/auth/reset-password?token=${encodeURIComponent(token)}`, { body: { token, password: 'short' } })).status,
    ).toBe(400);
    expect((await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'a brand new passphrase 7' } })).status).toBe(200);
  });

  it('change address: the confirmation mail to the new address', async () => {
    const account = await registerUser(t);
    keep('session of the account changing address', account.token);
    const next = `${uniqueName('moved')}@example.org`;
    expect(
      (await call(t, 'PUT', '/api/users/email', { token: account.token, body: { email: next, currentPassword: TEST_PASSWORD } })).status,
    ).toBe(202);
    const m = await mail(next, 'Confirm your new email address');
    const token = linkToken(m, '/confirm-email');
    keep('email change token', token);
    await open(linkTo(m, '/confirm-email'));
    expect((await call(t, 'POST', `/api/auth/confirm-email-change?token=${encodeURIComponent(token)}`, { body: {} })).status).toBe(400);
    expect((await call(t, 'POST', '/api/auth/confirm-email-change', { body: { token } })).status).toBe(200);
  });

  it('unsubscribe: the link in a notification and its List-Unsubscribe one-click URL', async () => {
    const account = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', {
      token: account.token,
      body: { subject: 'Logs', message: 'Please help me.', category: 'general' },
    });
    expect(created.status).toBe(201);
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    keep('staff session', staff.token);
    await call(t, 'POST', `/api/staff/tickets/${created.json.ticket._id as string}/messages`, {
      token: staff.token,
      body: { message: 'Answered.' },
    });
    const m = await mail(`${account.username}@example.com`, /^New reply on ticket #\d+$/);
    const token = linkToken(m, '/unsubscribe');
    keep('unsubscribe token', token);
    const [stored] = (
      await t.database.db.execute<{ headers: Record<string, string> }>(sql`SELECT headers FROM mail_sandbox_messages WHERE id = ${m.id}`)
    ).rows;
    const oneClick = /^<(.+)>$/.exec(stored!.headers['List-Unsubscribe']!)![1]!;
    keep('List-Unsubscribe URL', oneClick);
    await open(linkTo(m, '/unsubscribe'));
    await open(oneClick);
    const res = await fetch(`${t.url}${new URL(oneClick).pathname}${new URL(oneClick).search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect((await call(t, 'POST', '/api/mail/unsubscribe', { body: { token } })).status).toBe(200);
  });

  it('the log saw every one of those requests, and none of the tokens or links', async () => {
    // The last mail jobs have finished and logged.
    await t.app.jobs.drain();
    // The log is on and recorded the requests (so the check below is not vacuous); a request's last line
    // may be written just after its answer reached the client.
    for (const path of [
      '/api/auth/verify-email',
      '/api/auth/reset-password',
      '/api/auth/confirm-email-change',
      '/api/mail/unsubscribe',
      '/verify-email',
      '/reset-password',
      '/confirm-email',
    ]) {
      await expect.poll(log, { message: path, timeout: 5000 }).toContain(`"path":"${path}`);
    }
    const text = log();
    expect(text).toContain('mail sent');

    const links = new Set<string>();
    for (const m of mails) {
      for (const found of `${m.text}\n${m.html}`.matchAll(/https?:\/\/[^\s"'<>]+/g))
        if (found[0].includes('token=')) links.add(found[0].replace(/&amp;/g, '&'));
    }
    expect(links.size).toBeGreaterThanOrEqual(4);
    for (const link of links) secrets.set(`link ${link}`, link);
    expect(secrets.size).toBeGreaterThanOrEqual(12);
    for (const [name, value] of secrets) {
      for (const form of new Set([value, encodeURIComponent(value), new URL(value, PUBLIC_URL).search].filter((v) => v.length > 8))) {
        expect(text.includes(form), `${name} (${form}) appears in the log`).toBe(false);
      }
    }
  });
});
