import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser, type JsonResponse } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { TestSmtp, textPart, until } from '#server/test/smtp.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { pruneDeadRows } from '#server/modules/maintenance/prune.js';

const PUBLIC_URL = 'https://olympus.example';
// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

type User = { token: string; userId: string; username: string };

describe.each(enginesFor('logic'))('a copy of my data on %s', (engine) => {
  let t: TestApp;
  let admin: User;
  let support: User;
  const smtp = new TestSmtp();

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(engine, { PUBLIC_URL, RATE_LIMITS: '0', SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  });

  async function upload(ticketId: string, token: string, filename: string) {
    const res = await fetch(`${t.url}/api/tickets/${ticketId}/attachments?${new URLSearchParams({ filename })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: new Uint8Array(PNG),
    });
    expect(res.status).toBeLessThan(300);
  }

  async function download(path: string, token: string) {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  async function untilReady(exportId: string, token: string): Promise<JsonResponse> {
    return until(
      'the export to be ready',
      async () => {
        const res = await call(t, 'GET', `/api/users/me/exports/${exportId}`, { token });
        expect(res.status).toBe(200);
        expect(['pending', 'ready']).toContain(res.json.status);
        return res.json.status === 'ready' ? res : null;
      },
      60_000,
    );
  }

  /** A user with something in every file: money, tickets with a file and an internal note, a webhook, two-factor. */
  async function populatedUser(): Promise<User & { webhookSecret: string; internalNote: string; internalReason: string }> {
    const user = await registerUser(t);
    const internalReason = `Internal reason ${user.username} chargeback dispute`;
    const adjusted = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: user.userId, amount: 12.5, reason: internalReason, customerNote: 'Compensation for the slow deposit' },
    });
    expect(adjusted.status).toBe(201);
    const ticket = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { subject: 'Where is my deposit', category: 'technical', priority: 'normal', message: 'It has been an hour.' },
    });
    expect(ticket.status).toBeLessThan(300);
    const ticketId = ticket.json.ticket?._id ?? ticket.json._id;
    await upload(ticketId, user.token, 'screen shot.png');
    const internalNote = `INTERNAL-NOTE-${user.username} suspected fraud`;
    expect(
      (
        await call(t, 'POST', `/api/staff/tickets/${ticketId}/messages`, {
          token: support.token,
          body: { message: internalNote, internal: true },
        })
      ).status,
    ).toBeLessThan(300);
    expect(
      (
        await call(t, 'POST', `/api/staff/tickets/${ticketId}/messages`, {
          token: support.token,
          body: { message: 'We are looking into it.' },
        })
      ).status,
    ).toBeLessThan(300);
    const hook = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: user.token,
      body: { url: 'http://127.0.0.1:9/olympus', events: ['credits.changed'], enabled: true },
    });
    expect(hook.status).toBeLessThan(300);
    const webhookSecret = String(hook.json.secret ?? hook.json.settings?.secret ?? '');
    // Two-factor secrets, recovery code hashes and a one-time link's hash, written as the services store them.
    await t.database.db.execute(
      sql`INSERT INTO two_factor (user_id, totp_secret_ciphertext, totp_enabled_at) VALUES (${user.userId}, ${`TOTP-CIPHERTEXT-${user.username}`}, now())`,
    );
    await t.database.db.execute(
      sql`INSERT INTO two_factor_recovery_codes (user_id, code_hash) VALUES (${user.userId}, ${`RECOVERY-HASH-${user.username}`})`,
    );
    await t.database.db.execute(sql`
      INSERT INTO account_tokens (user_id, purpose, token_hash, email, expires_at)
      VALUES (${user.userId}, 'reset_password', ${`TOKEN-HASH-${user.username}`}, ${`${user.username}@example.com`}, now() + interval '1 hour')`);
    // An ad campaign with a creative a reviewer (staff) rejected with a reason (decision 0304: in the
    // export), written as the campaigns service stores it (its budget's ledger entry is not this test's).
    const campaignId = randomUUID();
    await t.database.db.execute(sql`
      INSERT INTO ad_campaigns (id, owner_id, name, placements, starts_at, ends_at, price_model, price_cents, unit_millicents, budget_cents, remaining_millicents, status)
      VALUES (${campaignId}, ${user.userId}, ${`Wallet launch ${user.username}`}, ARRAY['patch-notes'], now() - interval '1 hour', now() + interval '7 days', 'cpm', 1000, 1000, 500, 500000, 'active')`);
    await t.database.db.execute(sql`
      INSERT INTO ads (placement, kind, title, body, target_url, campaign_id, review_status, created_at)
      VALUES ('patch-notes', 'text', 'Cold storage, done right', 'Hardware wallets shipped worldwide.', 'https://wallets.example.com/?ref=olympus', ${campaignId}, 'pending', now() - interval '1 minute')`);
    await t.database.db.execute(sql`
      INSERT INTO ads (placement, kind, title, body, target_url, campaign_id, review_status, review_reason, reviewed_by, reviewed_at)
      VALUES ('patch-notes', 'text', 'Second creative', 'Another line.', 'https://wallets.example.com/two', ${campaignId}, 'rejected', 'The link goes nowhere', ${admin.userId}, now())`);
    return { ...user, webhookSecret, internalNote, internalReason };
  }

  it('builds one ZIP with every file, mails when it is ready, and holds nothing it must not', async () => {
    const user = await populatedUser();
    const other = await populatedUser();

    const requested = await call(t, 'POST', '/api/users/me/export', { token: user.token });
    expect(requested.status).toBe(202);
    const { exportId } = requested.json;
    expect(typeof exportId).toBe('string');
    const ready = await untilReady(exportId, user.token);
    expect(ready.json).toMatchObject({ exportId, status: 'ready', progress: 100 });
    const expiresIn = Date.parse(ready.json.expiresAt) - Date.parse(ready.json.readyAt);
    expect(expiresIn).toBe(7 * 24 * 60 * 60 * 1000);

    // The "ready" mail went through the outbox to a real SMTP server, with the link to the Privacy section.
    const email = `${user.username}@example.com`;
    const [mail] = await until('the ready mail', () =>
      smtp.to(email).some((m) => /copy of your data is ready/.test(m.raw))
        ? smtp.to(email).filter((m) => /copy of your data is ready/.test(m.raw))
        : null,
    );
    const text = textPart(mail!.raw);
    expect(text).toContain(`${PUBLIC_URL}/dashboard/settings/privacy`);
    expect(text).toContain('Available until');

    const file = await download(`/api/users/me/exports/${exportId}/download`, user.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zip');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="olympus-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = unzipSync(new Uint8Array(file.bytes));
    const names = Object.keys(zip).sort();
    for (const name of [
      'README.txt',
      'account.json',
      'campaigns.json',
      'charges.json',
      'exchanges.json',
      'ledger.csv',
      'ledger.json',
      'orders.json',
      'payments.json',
      'referrals.json',
      'security-log.json',
      'sessions.json',
      'tickets.json',
      'webhooks.json',
    ]) {
      expect(names).toContain(name);
    }
    const read = (name: string) => JSON.parse(strFromU8(zip[name]!));

    const account = read('account.json');
    expect(account.profile).toMatchObject({ id: user.userId, username: user.username, email, creditsCents: 1250, locale: null });
    expect(account.verification).toEqual({ emailVerified: false, emailVerifiedAt: null });
    expect(account.twoFactor.authenticatorApp.enabled).toBe(true);
    expect(account.twoFactor.recoveryCodes).toEqual({ total: 1, unused: 1 });
    expect(account.connections).toEqual({ discord: null, telegram: null });
    expect(account.notificationSettings).toMatchObject({ paymentCredited: true, ticketReply: true, orderUpdates: true });

    const sessions = read('sessions.json').sessions;
    expect(sessions.length).toBeGreaterThanOrEqual(1);
    expect(sessions[0]).toMatchObject({ active: true });
    expect(Object.keys(sessions[0]).sort()).toEqual([
      'active',
      'endedAt',
      'expiresAt',
      'id',
      'ip',
      'lastSeenAt',
      'rememberMe',
      'startedAt',
      'userAgent',
    ]);

    const ledger = read('ledger.json');
    expect(ledger.balanceCents).toBe(1250);
    expect(ledger.entries).toEqual([
      expect.objectContaining({
        kind: 'adjustment',
        amountCents: 1250,
        balanceAfterCents: 1250,
        description: 'Compensation for the slow deposit',
      }),
    ]);
    const csv = strFromU8(zip['ledger.csv']!).trim().split('\r\n');
    expect(csv[0]).toBe('date,entry_id,kind,description,amount,balance_after,reference');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(',adjustment,Compensation for the slow deposit,12.50,12.50,');

    expect(read('payments.json')).toEqual({ payments: [] });
    expect(read('referrals.json')).toEqual({ referrals: [] });
    expect(read('exchanges.json')).toEqual({ exchanges: [] });
    expect(read('orders.json')).toEqual({ orders: [] });
    expect(read('charges.json')).toEqual({ charges: [] });

    // The person's ad campaigns and their creatives, with the review's outcome but not the reviewer.
    const { campaigns } = read('campaigns.json');
    expect(campaigns).toHaveLength(1);
    expect(campaigns[0]).toMatchObject({
      name: `Wallet launch ${user.username}`,
      budgetCents: 500,
      remainingMillicents: 500_000,
      status: 'active',
      placements: ['patch-notes'],
    });
    expect(
      campaigns[0].creatives.map((c: { title: string; reviewStatus: string; reviewReason: string | null }) => [
        c.title,
        c.reviewStatus,
        c.reviewReason,
      ]),
    ).toEqual([
      ['Cold storage, done right', 'pending', null],
      ['Second creative', 'rejected', 'The link goes nowhere'],
    ]);
    expect(campaigns[0].creatives[0]).toMatchObject({
      body: 'Hardware wallets shipped worldwide.',
      targetUrl: 'https://wallets.example.com/?ref=olympus',
    });
    expect(Object.keys(campaigns[0].creatives[1])).not.toContain('reviewedBy');

    const tickets = read('tickets.json').tickets;
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ subject: 'Where is my deposit', category: 'technical' });
    const messages = tickets[0].messages;
    expect(messages.map((m: { author: string; body: string }) => [m.author, m.body])).toEqual([
      ['you', 'It has been an hour.'],
      ['you', 'Attached screen shot.png'],
      ['support', 'We are looking into it.'],
    ]);
    const attachment = messages.flatMap((m: { attachments: unknown[] }) => m.attachments)[0];
    expect(attachment).toMatchObject({ filename: 'screen shot.png', contentType: 'image/png', size: PNG.length });
    expect(attachment.file).toMatch(/^attachments\/\d+\/[0-9a-f-]+-screen shot\.png$/);
    expect(Buffer.from(zip[attachment.file]!).equals(PNG)).toBe(true);

    const hooks = read('webhooks.json');
    expect(hooks.webhook).toMatchObject({ url: 'http://127.0.0.1:9/olympus', events: ['credits.changed'], enabled: true });
    expect(Object.keys(hooks.webhook)).not.toContain('secretHint');

    const log = read('security-log.json');
    expect(log.signIns.length).toBeGreaterThanOrEqual(1);
    expect(log.events.map((e: { event: string }) => e.event)).toEqual(expect.arrayContaining(['account.created', 'two_factor.enabled']));

    // What it must never hold: another user's data, secrets, hashes, internal notes, staff-only data.
    const everything = Object.values(zip)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('\n');
    const [row] = (
      await t.database.db.execute<{ password_hash: string; secret_ciphertext: string; secret_hint: string }>(sql`
      SELECT u.password_hash, w.secret_ciphertext, w.secret_hint FROM users u JOIN webhooks w ON w.user_id = u.id WHERE u.id = ${user.userId}`)
    ).rows;
    const sessionTokens = (await t.database.db.execute<{ id: string }>(sql`SELECT id FROM sessions WHERE user_id = ${other.userId}`)).rows;
    const forbidden = [
      row!.password_hash,
      row!.secret_ciphertext,
      row!.secret_hint,
      `TOTP-CIPHERTEXT-${user.username}`,
      `RECOVERY-HASH-${user.username}`,
      `TOKEN-HASH-${user.username}`,
      user.internalNote,
      user.internalReason,
      'internalReason',
      'internal',
      user.token,
      other.username,
      other.userId,
      other.internalNote,
      ...sessionTokens.map((s) => s.id),
      support.username,
      admin.username,
      admin.userId,
      'credits.adjusted',
    ];
    expect(user.webhookSecret.length).toBeGreaterThan(10);
    forbidden.push(user.webhookSecret);
    for (const text of forbidden) expect(everything, text).not.toContain(text);

    // The export's own status answer says how long it lasts and when the next may be asked for.
    expect(Date.parse(ready.json.nextRequestAt) - Date.parse(ready.json.requestedAt)).toBe(24 * 60 * 60 * 1000);
    const latest = await call(t, 'GET', '/api/users/me/exports', { token: user.token });
    expect(latest.json.export).toMatchObject({ exportId, status: 'ready' });
  }, 120_000);

  it('allows one export a day: the second request is 429 with a clear code, and two at once make one', async () => {
    const user = await registerUser(t);
    const [a, b] = await Promise.all([
      call(t, 'POST', '/api/users/me/export', { token: user.token }),
      call(t, 'POST', '/api/users/me/export', { token: user.token }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([202, 429]);
    const refused = a.status === 429 ? a : b;
    const accepted = a.status === 202 ? a : b;
    expect(refused.json.code).toBe('EXPORT_ALREADY_REQUESTED');
    expect(refused.json.details.exportId).toBe(accepted.json.exportId);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    const count = await t.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM data_exports WHERE user_id = ${user.userId}`,
    );
    expect(count.rows[0]!.n).toBe(1);

    // A day later another may be requested.
    await untilReady(accepted.json.exportId, user.token);
    await t.database.db.execute(sql`UPDATE data_exports SET requested_at = now() - interval '25 hours' WHERE user_id = ${user.userId}`);
    expect((await call(t, 'POST', '/api/users/me/export', { token: user.token })).status).toBe(202);
  }, 120_000);

  it("answers 404 for someone else's export and for ids that are not exports", async () => {
    const owner = await registerUser(t);
    const stranger = await registerUser(t);
    const { exportId } = (await call(t, 'POST', '/api/users/me/export', { token: owner.token })).json;
    await untilReady(exportId, owner.token);
    for (const path of [`/api/users/me/exports/${exportId}`, `/api/users/me/exports/${exportId}/download`]) {
      const res = await call(t, 'GET', path, { token: stranger.token });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
      expect((await call(t, 'GET', path, { token: admin.token })).status).toBe(404);
      expect((await call(t, 'GET', path)).status).toBe(401);
    }
    expect((await call(t, 'GET', '/api/users/me/exports/not-a-uuid', { token: owner.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/users/me/exports/00000000-0000-4000-8000-000000000000', { token: owner.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/users/me/exports', { token: stranger.token })).json.export).toBeNull();
  }, 120_000);

  it('refuses the download while pending, answers expired after 7 days, and the prune job deletes it', async () => {
    const user = await registerUser(t);
    // A pending export (its job not run yet): written directly, so the job cannot finish it first.
    const [pending] = (
      await t.database.db.execute<{ id: string }>(sql`INSERT INTO data_exports (user_id) VALUES (${user.userId}) RETURNING id`)
    ).rows;
    const early = await call(t, 'GET', `/api/users/me/exports/${pending!.id}/download`, { token: user.token });
    expect(early.status).toBe(409);
    expect(early.json.code).toBe('EXPORT_NOT_READY');
    expect((await call(t, 'GET', `/api/users/me/exports/${pending!.id}`, { token: user.token })).json).toMatchObject({
      status: 'pending',
      readyAt: null,
    });
    await t.database.db.execute(sql`DELETE FROM data_exports WHERE id = ${pending!.id}`);

    const { exportId } = (await call(t, 'POST', '/api/users/me/export', { token: user.token })).json;
    await untilReady(exportId, user.token);
    const [{ storage_key: key }] = (
      await t.database.db.execute<{ storage_key: string }>(sql`SELECT storage_key FROM data_exports WHERE id = ${exportId}`)
    ).rows as [{ storage_key: string }];
    const { access } = await import('node:fs/promises');
    const filePath = `${t.config.attachmentsDir}/exports/${key}`;
    await access(filePath);

    // Six days on it still downloads; past seven it is expired, then pruned (file and row).
    await t.database.db.execute(
      sql`UPDATE data_exports SET ready_at = now() - interval '6 days', expires_at = now() + interval '1 day', requested_at = now() - interval '6 days' WHERE id = ${exportId}`,
    );
    await pruneDeadRows(t.database.db, t.config.attachmentsDir);
    expect((await download(`/api/users/me/exports/${exportId}/download`, user.token)).status).toBe(200);
    await t.database.db.execute(
      sql`UPDATE data_exports SET ready_at = now() - interval '7 days 1 minute', expires_at = now() - interval '1 minute' WHERE id = ${exportId}`,
    );
    expect((await call(t, 'GET', `/api/users/me/exports/${exportId}`, { token: user.token })).json).toMatchObject({
      status: 'expired',
      sizeBytes: null,
    });
    const late = await call(t, 'GET', `/api/users/me/exports/${exportId}/download`, { token: user.token });
    expect(late.status).toBe(410);
    expect(late.json.code).toBe('EXPORT_EXPIRED');

    const pruned = await pruneDeadRows(t.database.db, t.config.attachmentsDir);
    expect(pruned.dataExports).toBeGreaterThanOrEqual(1);
    await expect(access(filePath)).rejects.toThrow();
    expect((await call(t, 'GET', `/api/users/me/exports/${exportId}`, { token: user.token })).status).toBe(404);
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  }, 120_000);
});
