import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import * as OTPAuth from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { control, deposit, postIpn, providerPayment } from '#server/test/payments.js';
import { waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { exportStore } from '#server/modules/privacy/data-export.service.js';
import { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { setRole } from '#server/modules/users/users.service.js';
import { dueErasures, ERASURE_STEPS, eraseAccount, type ErasureStep } from './erasure.js';

// Closing an account (decision 0255): the dialog's figures, what stops at once, restoring within the 14
// days, the erasure and its crash safety, and the staff console's list and "erase now".

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const DAY_MS = 86_400_000;

function codeAt(secret: string, offset = 0): string {
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

type User = Awaited<ReturnType<typeof registerUser>>;

describe.each(enginesFor('database'))('closing an account on %s', (engine) => {
  let t: TestApp;
  let admin: User;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    if (t) await rm(t.config.attachmentsDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

  async function fund(u: User, cents: number) {
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId: u.userId, amount: cents / 100, reason: 'test funds' },
    });
    expect(res.status).toBe(201);
  }
  const balanceOf = async (userId: string) =>
    Number((await sql('SELECT credits_cents FROM users WHERE id = $1', [userId]))[0].credits_cents);
  const login = (username: string, password = TEST_PASSWORD) =>
    call(t, 'POST', '/api/login', { body: { username, password, turnstileToken: 'ok' } });
  const close = (u: User, body: Record<string, unknown>) =>
    call(t, 'DELETE', '/api/users/me', { token: u.token, body: { password: TEST_PASSWORD, ...body } });
  const deliveriesOf = async (userId: string) =>
    Number((await sql('SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1', [userId]))[0].n);

  async function withWebhook(u: User) {
    await sql(
      `INSERT INTO webhooks (user_id, url, events, secret_ciphertext, secret_hint) VALUES ($1, 'https://hooks.example.com/olympus', '["credits.changed"]', 'sealed', '1234')`,
      [u.userId],
    );
  }

  async function turnOnTotp(u: User) {
    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    expect(setup.status).toBe(200);
    const secret = setup.json.secret as string;
    // The current step's code: a busy machine may cross a 30-second step before the server checks it, and
    // the previous step's code would then be too old. Later factors in these tests are recovery codes.
    const enable = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(secret) } });
    expect(enable.status).toBe(200);
    return { secret, recoveryCodes: enable.json.recoveryCodes as string[] };
  }

  it('shows the balance to forfeit, refuses a wrong password or a balance the person did not see, and changes nothing then', async () => {
    const u = await registerUser(t);
    await fund(u, 2_500);
    const summary = await call(t, 'GET', '/api/users/me/closure', { token: u.token });
    expect(summary.status).toBe(200);
    expect(summary.json).toEqual({
      balanceCents: 2_500,
      pendingOrders: [],
      campaigns: [],
      campaignReserveCents: 0,
      erasureDelayDays: 14,
      twoFactorRequired: false,
    });

    const wrong = await close(u, { password: 'not my password 1', acknowledgeForfeitedCents: 2_500 });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('WRONG_PASSWORD');

    // The balance moved after the dialog showed it: refused with the new figure, nothing forfeited unseen.
    const stale = await close(u, { acknowledgeForfeitedCents: 1_000 });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ code: 'BALANCE_CHANGED', details: { balanceCents: 2_500 } });
    const [row] = await sql('SELECT closing_at, erasure_at FROM users WHERE id = $1', [u.userId]);
    expect(row).toEqual({ closing_at: null, erasure_at: null });
    expect((await call(t, 'GET', '/api/auth/me', { token: u.token })).status).toBe(200);
  });

  it('stops everything at once, mails how to change one’s mind, and restores everything, balance included', async () => {
    const u = await registerUser(t);
    await fund(u, 4_200);
    await withWebhook(u);
    await sql(
      `UPDATE users SET discord = '{"id":"d-${u.userId}","username":"dis","avatar":null,"connectedAt":"2026-01-01T00:00:00Z"}' WHERE id = $1`,
      [u.userId],
    );
    const second = await login(u.username);
    expect(second.status).toBe(200);
    const key = await call(t, 'POST', '/api/admin/api-keys', { token: admin.token, body: { name: `shop ${randomUUID().slice(0, 8)}` } });
    expect(key.status).toBe(201);

    const before = Date.now();
    const closed = await close(u, { acknowledgeForfeitedCents: 4_200 });
    expect(closed.status).toBe(202);
    const erasureAt = new Date(closed.json.erasureAt as string).getTime();
    expect(erasureAt).toBeGreaterThanOrEqual(before + 14 * DAY_MS - 60_000);
    expect(erasureAt).toBeLessThanOrEqual(Date.now() + 14 * DAY_MS + 60_000);

    // Every session ended; the connection removed; the balance untouched so far.
    for (const token of [u.token, second.json.token as string]) {
      const me = await call(t, 'GET', '/api/auth/me', { token });
      expect(me.status).toBe(401);
      expect(me.json.code).toBe('SESSION_ENDED');
    }
    expect((await sql('SELECT discord, telegram FROM users WHERE id = $1', [u.userId]))[0]).toEqual({ discord: null, telegram: null });
    expect(await balanceOf(u.userId)).toBe(4_200);

    // Webhooks and the charge API stop.
    const deliveries = await deliveriesOf(u.userId);
    await fund(u, 100);
    expect(await deliveriesOf(u.userId)).toBe(deliveries);
    const charged = await call(t, 'POST', '/api/v1/charges', {
      token: key.json.key as string,
      body: { userId: u.userId, amountCents: 500, description: 'Game pass' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(charged.status).toBe(403);
    expect(charged.json.code).toBe('ACCOUNT_CLOSING');
    expect(await balanceOf(u.userId)).toBe(4_300);

    const [mail] = await waitForMail(t, `${u.username}@example.com`, 'Your Olympus account is closing');
    expect(mail!.text).toContain('Restore my account');
    expect(mail!.text).toContain(new Date(erasureAt).toISOString().slice(0, 10));
    expect(mail!.text).toContain('42.00 credits');

    // Signing in says when the account closes and how to restore it; no session is made.
    const sessionsBefore = (await sql('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [u.userId]))[0].n;
    const refused = await login(u.username);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'ACCOUNT_CLOSING', details: { erasureAt: closed.json.erasureAt, methods: [] } });
    expect((await sql('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [u.userId]))[0].n).toBe(sessionsBefore);

    const badRestore = await call(t, 'POST', '/api/auth/restore-account', {
      body: { username: u.username, password: 'not my password 1' },
    });
    expect(badRestore.status).toBe(401);
    expect(badRestore.json.code).toBe('INVALID_CREDENTIALS');

    const restored = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(restored.status).toBe(200);
    // It says what came back and what is left to redo: the Discord connection closing removed.
    expect(restored.json.restored).toEqual({ balanceCents: 4_300, pausedCampaigns: [], webhook: true, reconnect: ['discord'] });
    const token = restored.json.token as string;
    expect((await call(t, 'GET', '/api/auth/me', { token })).status).toBe(200);
    expect((await call(t, 'GET', `/api/users/${u.userId}/credits`, { token })).json).toEqual({ credits: 43 });
    expect((await login(u.username)).status).toBe(200);
    // Webhooks and charges work again.
    await fund(u, 100);
    expect(await deliveriesOf(u.userId)).toBe(deliveries + 1);
    const chargedAgain = await call(t, 'POST', '/api/v1/charges', {
      token: key.json.key as string,
      body: { userId: u.userId, amountCents: 500, description: 'Game pass' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(chargedAgain.status).toBe(201);
    expect(await balanceOf(u.userId)).toBe(3_900);

    // Restoring an open account is refused.
    const again = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('ACCOUNT_NOT_CLOSING');
  });

  it('asks for the second factor to close and to restore when two-factor is on', async () => {
    const u = await registerUser(t);
    const { recoveryCodes } = await turnOnTotp(u);
    const summary = await call(t, 'GET', '/api/users/me/closure', { token: u.token });
    expect(summary.json.twoFactorRequired).toBe(true);

    const without = await close(u, { acknowledgeForfeitedCents: 0 });
    expect(without.status).toBe(403);
    expect(without.json.code).toBe('TWO_FACTOR_REQUIRED');
    const closed = await close(u, { acknowledgeForfeitedCents: 0, twoFactorCode: recoveryCodes[1] });
    expect(closed.status).toBe(202);

    const refused = await login(u.username);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'ACCOUNT_CLOSING', details: { methods: ['totp', 'recovery'] } });

    const noCode = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(noCode.status).toBe(403);
    expect(noCode.json.code).toBe('TWO_FACTOR_REQUIRED');
    const wrongCode = await call(t, 'POST', '/api/auth/restore-account', {
      body: { username: u.username, password: TEST_PASSWORD, twoFactorCode: '000000' },
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.json.code).toBe('INVALID_TWO_FACTOR_CODE');
    expect((await sql('SELECT closing_at IS NOT NULL AS closing FROM users WHERE id = $1', [u.userId]))[0].closing).toBe(true);

    const restored = await call(t, 'POST', '/api/auth/restore-account', {
      body: { username: u.username, password: TEST_PASSWORD, twoFactorCode: recoveryCodes[0] },
    });
    expect(restored.status).toBe(200);
    expect((await call(t, 'GET', '/api/auth/me', { token: restored.json.token })).status).toBe(200);
  });

  /** A closed account with everything the erasure must remove or keep, its erasure time already past. */
  async function closedAccountWithEverything() {
    const u = await registerUser(t);
    await fund(u, 2_550);
    await withWebhook(u);
    await fund(u, 50); // one delivery queued while the webhook works
    const ticket = await call(t, 'POST', '/api/tickets', {
      token: u.token,
      body: { subject: 'Where is my reward', category: 'technical', priority: 'normal', message: 'My personal words' },
    });
    expect(ticket.status).toBe(201);
    const ticketId = ticket.json.ticket._id as string;
    const uploaded = await fetch(`${t.url}/api/tickets/${ticketId}/attachments?filename=shot.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(PNG),
    });
    expect(uploaded.status).toBe(201);
    const [file] = await sql('SELECT storage_key FROM ticket_attachments WHERE ticket_id = $1', [ticketId]);
    const { recoveryCodes } = await turnOnTotp(u);
    await sql(`INSERT INTO passkeys (user_id, credential_id, public_key, name) VALUES ($1, $2, 'AAAA', 'Laptop')`, [
      u.userId,
      `cred-${u.userId}`,
    ]);
    await sql(`INSERT INTO mail_preferences (user_id, payment_credited) VALUES ($1, false)`, [u.userId]);
    // Two-factor is on: closed with a recovery code (not racing the app's 30-second steps).
    const closed = await close(u, { acknowledgeForfeitedCents: 2_600, twoFactorCode: recoveryCodes[0] });
    expect(closed.status).toBe(202);
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    return { u, ticketId, storageKey: file.storage_key as string };
  }

  /** Everything the erasure leaves, as one comparable picture (ids and times left out). */
  async function endState(userId: string) {
    const [user] = await sql(
      `SELECT username, email, password_hash, discord, telegram, credits_cents::int AS credits_cents, email_verified_at, erased_at IS NOT NULL AS erased, disabled_at IS NOT NULL AS disabled FROM users WHERE id = $1`,
      [userId],
    );
    const count = async (table: string, column = 'user_id') =>
      Number((await sql(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [userId]))[0].n);
    const ledger = await sql(
      `SELECT amount_cents::int AS amount, kind, balance_after_cents::int AS after FROM credit_ledger_entries WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
    const messages = await sql(
      `SELECT m.body, m.author FROM ticket_messages m JOIN tickets t ON t.id = m.ticket_id WHERE t.user_id = $1 ORDER BY m.created_at`,
      [userId],
    );
    const files = Number(
      (
        await sql(`SELECT count(*)::int AS n FROM ticket_attachments a JOIN tickets t ON t.id = a.ticket_id WHERE t.user_id = $1`, [userId])
      )[0].n,
    );
    return {
      user,
      sessions: await count('sessions'),
      twoFactor: await count('two_factor'),
      recoveryCodes: await count('two_factor_recovery_codes'),
      passkeys: await count('passkeys'),
      webhooks: await count('webhooks'),
      deliveries: await count('webhook_deliveries'),
      mailPreferences: await count('mail_preferences'),
      accountTokens: await count('account_tokens'),
      knownDevices: await count('known_devices'),
      ledger,
      messages,
      files,
    };
  }

  function erasureDeps(steps?: ErasureStep[], afterStep?: (name: string) => void) {
    return {
      database: t.database,
      attachments: new AttachmentStore(t.config.attachmentsDir),
      exports: exportStore(t.config.attachmentsDir),
      events: t.app.events,
      ...(steps ? { steps } : {}),
      ...(afterStep ? { afterStep } : {}),
    };
  }

  it('erases the person and keeps the financial records, the ledger summing; the name and address can register again', async () => {
    const { u, ticketId, storageKey } = await closedAccountWithEverything();
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('erased');
    const state = await endState(u.userId);
    expect(state.user).toEqual({
      username: `deleted-${u.userId}`,
      email: `deleted-${u.userId}@erased.invalid`,
      password_hash: '!erased',
      discord: null,
      telegram: null,
      credits_cents: 0,
      email_verified_at: null,
      erased: true,
      disabled: true,
    });
    expect(state).toMatchObject({
      sessions: 0,
      twoFactor: 0,
      recoveryCodes: 0,
      passkeys: 0,
      webhooks: 0,
      deliveries: 0,
      mailPreferences: 0,
      accountTokens: 0,
      knownDevices: 0,
      files: 0,
    });
    // The ledger keeps every entry, and one forfeit entry writes the balance off.
    expect(state.ledger).toEqual([
      { amount: 2_550, kind: 'adjustment', after: 2_550 },
      { amount: 50, kind: 'adjustment', after: 2_600 },
      { amount: -2_600, kind: 'forfeit', after: 0 },
    ]);
    expect(await readdir(t.config.attachmentsDir)).not.toContain(storageKey);
    // The ticket and its messages stay for staff, under "Deleted user".
    expect(state.messages.map((m) => m.body)).toContain('My personal words');
    const staffView = await call(t, 'GET', `/api/staff/tickets/${ticketId}`, { token: admin.token });
    expect(staffView.status).toBe(200);
    expect(staffView.json.ticket.requester).toEqual({ type: 'user', name: 'Deleted user', locale: null });
    expect(staffView.json.ticket.messages[0].authorName).toBe('Deleted user');

    // Nobody signs in as the erased account, and running the erasure again changes nothing.
    expect((await login(u.username)).status).toBe(401);
    expect((await login(`deleted-${u.userId}`, '!erased')).status).toBe(401);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('already-erased');
    expect(await endState(u.userId)).toEqual(state);

    // The same username and address register again, as a new account with nothing of the old one.
    const again = await registerUser(t, { username: u.username, email: `${u.username}@example.com` });
    expect(again.userId).not.toBe(u.userId);
    expect(await balanceOf(again.userId)).toBe(0);
    expect((await call(t, 'GET', '/api/tickets', { token: again.token })).json.tickets).toEqual([]);
  });

  it('survives a crash after any step: the next run reaches the same end state, nothing lost from the ledger', async () => {
    const reference = await closedAccountWithEverything();
    await eraseAccount(erasureDeps(), reference.u.userId);
    const expected = await endState(reference.u.userId);
    const normalise = (state: Awaited<ReturnType<typeof endState>>, userId: string) =>
      JSON.parse(JSON.stringify(state).replaceAll(userId, '<id>')) as unknown;

    for (let crashAfter = 0; crashAfter < ERASURE_STEPS.length - 1; crashAfter++) {
      const { u } = await closedAccountWithEverything();
      const crash = new Error(`crash after ${ERASURE_STEPS[crashAfter]!.name}`);
      await expect(
        eraseAccount(
          erasureDeps(undefined, (name) => {
            if (name === ERASURE_STEPS[crashAfter]!.name) throw crash;
          }),
          u.userId,
        ),
      ).rejects.toBe(crash);
      // Cut short: not marked erased, so the job picks it up again.
      expect((await sql('SELECT erased_at FROM users WHERE id = $1', [u.userId]))[0].erased_at).toBeNull();
      expect(await ledgerViolations(t.database.db)).toEqual([]);
      // A step that fails inside its transaction leaves nothing of itself either.
      const failing: ErasureStep = { name: 'boom', run: async () => Promise.reject(new Error('disk full')) };
      await expect(eraseAccount(erasureDeps([...ERASURE_STEPS.slice(0, crashAfter + 1), failing]), u.userId)).rejects.toThrow('disk full');

      // The next run finishes it: this one, or the scheduled job when its minute came meanwhile.
      expect(['erased', 'already-erased'], `rerun after a crash after step ${crashAfter}`).toContain(
        await eraseAccount(erasureDeps(), u.userId),
      );
      expect(normalise(await endState(u.userId), u.userId)).toEqual(normalise(expected, reference.u.userId));
    }
  }, 180_000);

  it('two runs at once (the job on two instances) erase once: one says erased, the other already erased', async () => {
    const { u } = await closedAccountWithEverything();
    const outcomes = await Promise.all([eraseAccount(erasureDeps(), u.userId), eraseAccount(erasureDeps(), u.userId)]);
    expect(outcomes.sort()).toEqual(['already-erased', 'erased']);
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  it('never erases an account that was restored, or before its time', async () => {
    const u = await registerUser(t);
    await fund(u, 300);
    expect((await close(u, { acknowledgeForfeitedCents: 300 })).status).toBe(202);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('not-due');
    expect(await balanceOf(u.userId)).toBe(300);
    const restored = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(restored.status).toBe(200);
    // The job's query would not list it, and the runner refuses it too.
    await sql(`UPDATE users SET erasure_at = NULL WHERE id = $1`, [u.userId]);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('not-due');
    expect(await balanceOf(u.userId)).toBe(300);
  });

  it('lists pending closures to staff and lets an admin erase one at once, with the username typed again, audit-logged', async () => {
    const support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    const u = await registerUser(t);
    await fund(u, 1_000);
    expect((await close(u, { acknowledgeForfeitedCents: 1_000 })).status).toBe(202);

    const list = await call(t, 'GET', '/api/admin/account-closures', { token: support.token });
    expect(list.status).toBe(200);
    expect(list.json.closures).toContainEqual(expect.objectContaining({ _id: u.userId, username: u.username, balanceCents: 1_000 }));
    expect((await call(t, 'GET', '/api/admin/account-closures', { token: u.token })).status).toBe(401);

    const path = `/api/admin/account-closures/${u.userId}/erase`;
    expect((await call(t, 'POST', path, { token: support.token, body: { confirmUsername: u.username } })).status).toBe(403);
    const mismatch = await call(t, 'POST', path, { token: admin.token, body: { confirmUsername: 'someone-else' } });
    expect(mismatch.status).toBe(400);
    expect(await balanceOf(u.userId)).toBe(1_000);

    const erased = await call(t, 'POST', path, { token: admin.token, body: { confirmUsername: u.username } });
    expect(erased.status).toBe(200);
    expect(erased.json).toMatchObject({ _id: u.userId, username: `deleted-${u.userId}` });
    expect(await balanceOf(u.userId)).toBe(0);
    const [audit] = await sql(`SELECT action, actor_id, before FROM audit_log WHERE target_id = $1 AND action = 'user.erased'`, [u.userId]);
    expect(audit).toMatchObject({ action: 'user.erased', actor_id: admin.userId, before: { username: u.username, balanceCents: 1_000 } });
    const after = await call(t, 'GET', '/api/admin/account-closures', { token: admin.token });
    expect(after.json.closures.map((c: { _id: string }) => c._id)).not.toContain(u.userId);
    // An open account cannot be erased this way.
    expect(
      (await call(t, 'POST', `/api/admin/account-closures/${support.userId}/erase`, { token: admin.token, body: { confirmUsername: 'x' } }))
        .status,
    ).toBe(404);
  });
  // ---- Ad campaigns, the restore's answer and notice (decision 0304) ------------------------------------

  const campaignOf = async (id: string) =>
    (await sql('SELECT status, remaining_millicents::text AS remaining FROM ad_campaigns WHERE id = $1', [id]))[0] as {
      status: string;
      remaining: string;
    };

  async function withCampaign(u: User, budgetCents: number, name = 'Wallet launch') {
    const res = await call(t, 'POST', '/api/ad-campaigns', {
      token: u.token,
      body: {
        requestId: randomUUID(),
        name,
        placements: ['patch-notes'],
        startsAt: new Date(Date.now() - 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7 * DAY_MS).toISOString(),
        priceModel: 'cpm',
        priceCents: 1000,
        budgetCents,
        creatives: [
          {
            kind: 'text',
            title: 'Cold storage, done right',
            body: 'Hardware wallets shipped worldwide.',
            targetUrl: 'https://wallets.example.com/?ref=olympus',
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.campaign as { _id: string; name: string };
  }

  it('lists the campaigns’ reserve among what is forfeited, pauses them on closing, and a restore says what came back and sends a security notice', async () => {
    const u = await registerUser(t);
    await fund(u, 2_000);
    const campaign = await withCampaign(u, 500);
    // Part of the budget already delivered: 123.456 cents left, rounded up as its refund would be.
    await sql('UPDATE ad_campaigns SET remaining_millicents = 123456 WHERE id = $1', [campaign._id]);

    const summary = await call(t, 'GET', '/api/users/me/closure', { token: u.token });
    expect(summary.json).toMatchObject({
      balanceCents: 1_500,
      campaignReserveCents: 124,
      campaigns: [{ _id: campaign._id, name: 'Wallet launch', status: 'active', reserveCents: 124 }],
    });

    // The balance alone acknowledged: refused with both figures, nothing changes.
    const unseen = await close(u, { acknowledgeForfeitedCents: 1_500 });
    expect(unseen.status).toBe(409);
    expect(unseen.json).toMatchObject({ code: 'BALANCE_CHANGED', details: { balanceCents: 1_500, campaignReserveCents: 124 } });
    expect(await campaignOf(campaign._id)).toEqual({ status: 'active', remaining: '123456' });
    expect((await call(t, 'GET', '/api/auth/me', { token: u.token })).status).toBe(200);

    // Delivery drew a little more while the dialog was open: less is forfeited than shown, that is fine.
    await sql('UPDATE ad_campaigns SET remaining_millicents = 100000 WHERE id = $1', [campaign._id]);
    await sql(
      `UPDATE users SET telegram = '{"id":"t-${u.userId}","username":"tg","firstName":null,"lastName":null,"connectedAt":"2026-01-01T00:00:00Z"}' WHERE id = $1`,
      [u.userId],
    );
    const closed = await close(u, { acknowledgeForfeitedCents: 1_500, acknowledgeCampaignReserveCents: 124 });
    expect(closed.status).toBe(202);
    // Paused, its reserve untouched: nothing is served or charged while the account is closing.
    expect(await campaignOf(campaign._id)).toEqual({ status: 'paused', remaining: '100000' });
    expect(await balanceOf(u.userId)).toBe(1_500);
    const [closingMail] = await waitForMail(t, `${u.username}@example.com`, 'Your Olympus account is closing');
    expect(closingMail!.text).toContain('16.00 credits (your balance of 15.00, and 1.00 your paused ad campaigns still hold)');

    const restored = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(restored.status).toBe(200);
    expect(restored.json.restored).toEqual({
      balanceCents: 1_500,
      pausedCampaigns: [{ _id: campaign._id, name: 'Wallet launch', reserveCents: 100 }],
      webhook: false,
      reconnect: ['telegram'],
    });
    // Still paused after the restore, until its owner resumes it; then it runs again.
    expect((await campaignOf(campaign._id)).status).toBe('paused');
    const resumed = await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/resume`, { token: restored.json.token });
    expect(resumed.status, JSON.stringify(resumed.json)).toBe(200);
    expect((await campaignOf(campaign._id)).status).toBe('active');

    // The security notice: a mail, and the in-app notice nobody can turn off.
    const [notice] = await waitForMail(t, `${u.username}@example.com`, 'Your Olympus account was restored');
    expect(notice!.text).toContain('your balance of 15.00 credits');
    expect(notice!.text).toContain('resume your ad campaign');
    expect(notice!.text).toContain('connect Telegram again');
    expect(notice!.text).toContain('If this was not you');
    const inbox = await call(t, 'GET', '/api/notifications', { token: restored.json.token });
    expect(inbox.status).toBe(200);
    expect(JSON.stringify(inbox.json)).toContain('security.account_restored');
    // A second restore (now refused) sends nothing more.
    expect((await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } })).status).toBe(
      409,
    );
    expect(
      (await sql(`SELECT count(*)::int AS n FROM mail_messages WHERE user_id = $1 AND kind = 'account_restored'`, [u.userId]))[0].n,
    ).toBe(1);
  });

  it('erases a closed account with a paused campaign: the reserve comes back by its refund and is forfeited with the balance', async () => {
    const u = await registerUser(t);
    await fund(u, 1_000);
    const campaign = await withCampaign(u, 500);
    expect((await close(u, { acknowledgeForfeitedCents: 500, acknowledgeCampaignReserveCents: 500 })).status).toBe(202);
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('erased');
    expect(await campaignOf(campaign._id)).toEqual({ status: 'ended', remaining: '0' });
    const ledger = await sql(`SELECT kind, amount_cents::int AS amount FROM credit_ledger_entries WHERE user_id = $1 ORDER BY created_at`, [
      u.userId,
    ]);
    expect(ledger).toEqual([
      { kind: 'adjustment', amount: 1_000 },
      { kind: 'spend', amount: -500 },
      { kind: 'refund', amount: 500 },
      { kind: 'forfeit', amount: -1_000 },
    ]);
  });

  // ---- Payments that finish late (decision 0305) ------------------------------------------------------

  /** Sends the provider's "finished" for a payment as `n` identical IPNs at once; each must be answered 200. */
  async function finishPayment(providerPaymentId: string, n = 4) {
    await control(t, providerPaymentId, { status: 'finished', ipn: false });
    const body = await providerPayment(t, providerPaymentId);
    const answers = await Promise.all(Array.from({ length: n }, () => postIpn(t, body)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: n }, () => 200));
  }
  const heldSince = async (userId: string) =>
    (await sql('SELECT closure_held_at FROM users WHERE id = $1', [userId]))[0].closure_held_at as Date | null;
  const ledgerOf = async (userId: string) =>
    sql(`SELECT kind, amount_cents::int AS amount FROM credit_ledger_entries WHERE user_id = $1 ORDER BY created_at`, [userId]);

  it('holds the erasure of a closing account when a payment finishes, tells the person, and forfeits nothing until they decide again', async () => {
    const u = await registerUser(t);
    const p = await deposit(t, u.token, { crypto: 'btc', amount: 100 });
    expect((await close(u, { acknowledgeForfeitedCents: 0 })).status).toBe(202);

    await finishPayment(p.providerPaymentId);
    expect(await balanceOf(u.userId)).toBe(9_700);
    expect(await ledgerOf(u.userId)).toEqual([{ kind: 'payment', amount: 9_700 }]);
    expect(await heldSince(u.userId)).not.toBeNull();
    const [told] = await waitForMail(t, `${u.username}@example.com`, 'A payment reached your closing Olympus account');
    expect(told!.text).toContain('97.00 credits');
    expect(told!.text).toContain('will not be erased until you decide again');

    // Its date passes: the job does not list it and the runner refuses it; the credits stay.
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    expect(await dueErasures(t.database)).not.toContain(u.userId);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('not-due');
    expect(await balanceOf(u.userId)).toBe(9_700);
    const list = await call(t, 'GET', '/api/admin/account-closures', { token: admin.token });
    expect(list.json.closures).toContainEqual(
      expect.objectContaining({ _id: u.userId, balanceCents: 9_700, heldSince: expect.any(String) }),
    );

    // A held closure stays restorable past its date; the restore clears the hold.
    const restored = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(restored.status).toBe(200);
    expect(restored.json.restored.balanceCents).toBe(9_700);
    expect(await heldSince(u.userId)).toBeNull();

    // Closing again, acknowledging the new balance, is the new decision: then the erasure forfeits it.
    const again = await call(t, 'DELETE', '/api/users/me', {
      token: restored.json.token,
      body: { password: TEST_PASSWORD, acknowledgeForfeitedCents: 9_700 },
    });
    expect(again.status).toBe(202);
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('erased');
    expect(await ledgerOf(u.userId)).toEqual([
      { kind: 'payment', amount: 9_700 },
      { kind: 'forfeit', amount: -9_700 },
    ]);
  });

  it('an admin’s erase-now at the owner’s request ends a hold', async () => {
    const u = await registerUser(t);
    const p = await deposit(t, u.token, { crypto: 'btc', amount: 50 });
    expect((await close(u, { acknowledgeForfeitedCents: 0 })).status).toBe(202);
    await finishPayment(p.providerPaymentId, 2);
    expect(await heldSince(u.userId)).not.toBeNull();
    const erased = await call(t, 'POST', `/api/admin/account-closures/${u.userId}/erase`, {
      token: admin.token,
      body: { confirmUsername: u.username },
    });
    expect(erased.status, JSON.stringify(erased.json)).toBe(200);
    const [audit] = await sql(`SELECT before FROM audit_log WHERE target_id = $1 AND action = 'user.erased'`, [u.userId]);
    expect(audit.before).toMatchObject({ balanceCents: 4_750, heldSince: expect.any(String) });
    expect(await ledgerOf(u.userId)).toEqual([
      { kind: 'payment', amount: 4_750 },
      { kind: 'forfeit', amount: -4_750 },
    ]);
  });

  it('writes off a payment that finishes after the erasure by its own entry, once, and queues it for staff to refund', async () => {
    const support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    const u = await registerUser(t);
    await fund(u, 300);
    const p = await deposit(t, u.token, { crypto: 'btc', amount: 100 });
    expect((await close(u, { acknowledgeForfeitedCents: 300 })).status).toBe(202);
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('erased');

    // The same IPN four times at once: one credit, one write-off, one queue row.
    await finishPayment(p.providerPaymentId);
    expect(await balanceOf(u.userId)).toBe(0);
    expect(await ledgerOf(u.userId)).toEqual([
      { kind: 'adjustment', amount: 300 },
      { kind: 'forfeit', amount: -300 },
      { kind: 'payment', amount: 9_700 },
      { kind: 'forfeit', amount: -9_700 },
    ]);
    const [payment] = await sql('SELECT status, credited_cents::int AS credited FROM payments WHERE id = $1', [p._id]);
    expect(payment).toEqual({ status: 'completed', credited: 9_700 });
    // Nobody to tell: no "payment credited" mail to the erased address.
    expect(
      (await sql(`SELECT count(*)::int AS n FROM mail_messages WHERE user_id = $1 AND kind = 'payment_credited'`, [u.userId]))[0].n,
    ).toBe(0);

    // Staff see it; support reads, only an admin records the refund, once, with a note; audit-logged.
    const list = await call(t, 'GET', '/api/admin/account-closures', { token: support.token });
    expect(list.status).toBe(200);
    const queued = (list.json.latePayments as { _id: string; paymentId: string }[]).find((l) => l.paymentId === p._id);
    expect(queued).toMatchObject({
      userId: u.userId,
      writtenOffCents: 9_700,
      priceAmountCents: 10_000,
      payCurrency: 'btc',
      refundedAt: null,
    });
    const path = `/api/admin/account-closures/late-payments/${queued!._id}/refunded`;
    expect((await call(t, 'POST', path, { token: support.token, body: { note: 'sent back' } })).status).toBe(403);
    expect((await call(t, 'POST', path, { token: admin.token, body: { note: '' } })).status).toBe(400);
    expect(
      (
        await call(t, 'POST', `/api/admin/account-closures/late-payments/${randomUUID()}/refunded`, {
          token: admin.token,
          body: { note: 'sent back' },
        })
      ).status,
    ).toBe(404);
    const marked = await call(t, 'POST', path, { token: admin.token, body: { note: 'Sent back to the sender, tx 0xabc' } });
    expect(marked.status, JSON.stringify(marked.json)).toBe(200);
    expect(marked.json).toMatchObject({ refundedAt: expect.any(String), refundNote: 'Sent back to the sender, tx 0xabc' });
    const twice = await call(t, 'POST', path, { token: admin.token, body: { note: 'again' } });
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('ALREADY_REFUNDED');
    const [audit] = await sql(`SELECT actor_id, before FROM audit_log WHERE target_id = $1 AND action = 'late-payment.refunded'`, [p._id]);
    expect(audit).toMatchObject({ actor_id: admin.userId, before: { writtenOffCents: 9_700 } });
    // The balance never moved for the refund: the money left outside Olympus.
    expect(await balanceOf(u.userId)).toBe(0);
  });

  it('treats an account whose erasure has begun like an erased one, and a refund by the provider closes the queue row without a debt', async () => {
    const u = await registerUser(t);
    const p = await deposit(t, u.token, { crypto: 'btc', amount: 100 });
    expect((await close(u, { acknowledgeForfeitedCents: 0 })).status).toBe(202);
    // The erasure time has come but the job has not run (or was cut short): it can no longer be restored.
    await sql(`UPDATE users SET erasure_at = now() - interval '1 minute' WHERE id = $1`, [u.userId]);
    await finishPayment(p.providerPaymentId, 3);
    expect(await heldSince(u.userId)).toBeNull();
    expect(await balanceOf(u.userId)).toBe(0);
    expect(await ledgerOf(u.userId)).toEqual([
      { kind: 'payment', amount: 9_700 },
      { kind: 'forfeit', amount: -9_700 },
    ]);
    expect(await eraseAccount(erasureDeps(), u.userId)).toBe('erased');

    // The provider sends the money back itself: no entry takes anything back, nothing is owed.
    await control(t, p.providerPaymentId, { status: 'refunded' });
    await t.app.jobs.drain();
    const [row] = await sql('SELECT refunded_at IS NOT NULL AS refunded, refunded_by FROM late_payment_refunds WHERE payment_id = $1', [
      p._id,
    ]);
    expect(row).toEqual({ refunded: true, refunded_by: null });
    expect((await sql('SELECT count(*)::int AS n FROM credit_debts WHERE user_id = $1', [u.userId]))[0].n).toBe(0);
    expect(await ledgerOf(u.userId)).toEqual([
      { kind: 'payment', amount: 9_700 },
      { kind: 'forfeit', amount: -9_700 },
    ]);
  });
});
