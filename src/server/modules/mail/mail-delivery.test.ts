import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { call, registerUser } from '#server/test/http.js';
import { createTestDatabase, enginesFor, startTestApp, type TestApp, type TestDatabase } from '#server/test/test-app.js';
import { TestSmtp, textPart, until } from '#server/test/smtp.js';
import { setRole } from '#server/modules/users/users.service.js';
import { SEND_JOB } from './mail.service.js';

async function outbox(database: Database, to: string) {
  const rows = await database.db.execute<{
    id: string;
    status: string;
    attempts: number;
    last_error: string | null;
    text_body: string | null;
  }>(
    sql`SELECT id, status, attempts, last_error, text_body FROM mail_messages WHERE lower(to_address) = ${to.toLowerCase()} ORDER BY created_at`,
  );
  return rows.rows;
}

describe.each(enginesFor('database'))('mail delivery over SMTP (%s)', (engine) => {
  const smtp = new TestSmtp();
  let t: TestApp;
  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(engine, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Olympus Test <robot@olympus.example>',
      PUBLIC_URL: 'https://olympus.example',
      RATE_LIMITS: '0',
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAIL_MAX_ATTEMPTS: '3',
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  it('delivers the verification mail over SMTP with a text and an HTML part, from MAIL_FROM, and erases the link from the outbox once sent', async () => {
    const account = await registerUser(t);
    const email = `${account.username}@example.com`;
    const [message] = await until('the verification mail', () => (smtp.to(email).length ? smtp.to(email) : null));
    expect(message!.from).toBe('robot@olympus.example');
    expect(message!.raw).toMatch(/^From: Olympus Test <robot@olympus\.example>/m);
    expect(message!.raw).toMatch(/^Subject: Confirm your email/m);
    expect(message!.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(message!.raw).toMatch(/Content-Type: text\/plain/i);
    expect(message!.raw).toMatch(/Content-Type: text\/html/i);
    const text = textPart(message!.raw);
    const token = /https:\/\/olympus\.example\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(token).toBeTruthy();
    // The link from the real mail works.
    expect((await call(t, 'POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const [row] = await until('the outbox row to be sent', async () => {
      const rows = await outbox(t.database, email);
      return rows[0]?.status === 'sent' ? rows : null;
    });
    expect(row!.attempts).toBe(1);
    expect(row!.text_body).toBeNull();
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('the mail sandbox is not mounted when SMTP is configured', async () => {
    expect((await call(t, 'GET', '/sandbox/mail/messages')).status).toBe(404);
    expect((await call(t, 'GET', '/sandbox/mail')).status).toBe(404);
  });

  it('retries a temporary failure with backoff and delivers once', async () => {
    const name = `retry${Date.now().toString(36)}`;
    const email = `${name}@example.com`;
    smtp.refuse(email, 2);
    const started = Date.now();
    await registerUser(t, { username: name, email });
    await until('delivery after two refusals', () => smtp.to(email).length > 0);
    // Two waits of at least 1 s and 2 s (doubling) happened before the third attempt.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    const [row] = await until('sent status', async () => {
      const rows = await outbox(t.database, email);
      return rows[0]?.status === 'sent' ? rows : null;
    });
    expect(row!.attempts).toBe(3);
    await t.app.jobs.drain(); // every send job still due has run: a second delivery would have arrived by now
    expect(smtp.to(email)).toHaveLength(1);
  }, 180_000);

  it('ends in a failed state that staff see (and may retry); the user never does', async () => {
    const name = `fail${Date.now().toString(36)}`;
    const email = `${name}@example.com`;
    smtp.refuse(email, Infinity);
    const account = await registerUser(t, { username: name, email });
    expect(account.user.emailVerified).toBe(false);
    await until('failed status', async () => (await outbox(t.database, email))[0]?.status === 'failed', 45_000);
    const [row] = await outbox(t.database, email);
    expect(row!.attempts).toBe(3);
    expect(row!.last_error).toMatch(/451/);
    // A failed message with a one-time link keeps no body.
    expect(row!.text_body).toBeNull();

    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const list = await call(t, 'GET', '/api/admin/mail?status=failed', { token: admin.token });
    expect(list.status).toBe(200);
    const listed = list.json.messages.find((m: { to: string }) => m.to === email);
    expect(listed).toMatchObject({ status: 'failed', attempts: 3, kind: 'verify_email', subject: 'Confirm your email' });
    expect(listed.lastError).toMatch(/451/);
    expect(JSON.stringify(list.json)).not.toMatch(/token=/);

    expect((await call(t, 'GET', '/api/admin/mail', { token: account.token })).status).toBe(403);
    // A link-carrying message whose body is gone cannot be re-sent (the user asks for a new link instead).
    expect((await call(t, 'POST', `/api/admin/mail/${row!.id}/retry`, { token: admin.token })).status).toBe(404);
    expect(smtp.to(email)).toHaveLength(0);
  }, 180_000);

  it('a request never waits for or fails with the mail server; once it is back, the message goes out', async () => {
    await smtp.stop();
    try {
      const started = Date.now();
      const account = await registerUser(t);
      expect(Date.now() - started).toBeLessThan(5000);
      const email = `${account.username}@example.com`;
      // `attempts` goes up when a sender claims the message, before the attempt fails: wait for the
      // recorded failure itself.
      const [row] = await until('a failed attempt', async () => {
        const rows = await outbox(t.database, email);
        return rows[0]?.last_error ? rows : null;
      });
      expect(row!.last_error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await smtp.start(smtp.port);
    }
  }, 180_000);

  it('…and the message that met a closed server is delivered once after it came back', async () => {
    const rows = await t.database.db.execute<{ to_address: string; status: string }>(
      sql`SELECT to_address, status FROM mail_messages WHERE last_error ~* 'ECONNREFUSED|connect' ORDER BY created_at DESC LIMIT 1`,
    );
    const email = rows.rows[0]!.to_address;
    await until('delivery after the server came back', () => smtp.to(email).length > 0, 45_000);
    expect(smtp.to(email)).toHaveLength(1);
  }, 180_000);
});

describe.each(enginesFor('database'))('two app instances on one database (%s)', (engine) => {
  const smtp = new TestSmtp();
  let db: TestDatabase;
  let second: Database | null = null;
  const apps: App[] = [];

  beforeAll(async () => {
    await smtp.start();
    smtp.delayMs = 150;
    db = await createTestDatabase(engine);
    // PostgreSQL: each instance has its own pool, as two processes would. PGlite: its one connection is shared.
    second =
      engine === 'postgres' ? await openDatabase({ databaseUrl: db.database.connectionString, dataDir: 'unused', poolSize: 5 }) : null;
    for (const database of [db.database, second ?? db.database]) {
      const config = loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'x'.repeat(40),
        DATA_DIR: 'memory://',
        RATE_LIMITS: '0',
        SMTP_URL: smtp.url,
        MAIL_RETRY_DELAY_SECONDS: '1',
      });
      const app = await buildApp({ config, database, isMigrated: () => true });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
  }, 180_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await second?.close();
    await db?.dispose();
    await smtp.stop();
  });

  it('sends each message exactly once, even with every message queued three times across both instances', async () => {
    const emails: string[] = [];
    for (let i = 0; i < 8; i++) {
      const username = `twin${Date.now().toString(36)}${i}`;
      const res = await fetch(`http://127.0.0.1:${(apps[i % 2]!.server.address() as AddressInfo).port}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'a long passphrase 42', turnstileToken: 'ok' }),
      });
      expect(res.status).toBe(201);
      emails.push(`${username}@example.com`);
    }
    // Duplicate jobs for every message, from both instances: only the claim stands between them and a double send.
    const ids = (await db.database.db.execute<{ id: string }>(sql`SELECT id FROM mail_messages`)).rows.map((r) => r.id);
    expect(ids).toHaveLength(8);
    for (const id of ids) {
      await apps[0]!.jobs.send(SEND_JOB, { messageId: id });
      await apps[1]!.jobs.send(SEND_JOB, { messageId: id });
    }
    await until('all messages delivered', () => emails.every((e) => smtp.to(e).length > 0), 45_000);
    // Every duplicate job, on either instance, has run: a second delivery would have arrived by now.
    await Promise.all(apps.map((app) => app.jobs.drain()));
    for (const email of emails) expect(smtp.to(email), email).toHaveLength(1);
    const messageIds = smtp.received.map((m) => m.messageId);
    expect(new Set(messageIds).size).toBe(messageIds.length);
    const statuses = (await db.database.db.execute<{ status: string; attempts: number }>(sql`SELECT status, attempts FROM mail_messages`))
      .rows;
    expect(statuses.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  }, 180_000);
});
