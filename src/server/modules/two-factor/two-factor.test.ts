import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, guestCookie, registerUser, startGuest, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { mailTo, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

function totp(secret: string) {
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}
/** The code of the step `offset` steps away from now. */
function codeAt(secret: string, offset = 0): string {
  return totp(secret).generate({ timestamp: Date.now() + offset * 30_000 });
}

async function login(t: TestApp, username: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call(t, 'POST', '/api/login', { body: { username, password: TEST_PASSWORD, turnstileToken: 'ok', ...extra }, headers });
}

/** A user with the authenticator app on: their secret, recovery codes and a session token. */
async function userWithTotp(t: TestApp) {
  const u = await registerUser(t);
  const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
  expect(setup.status).toBe(200);
  const secret = setup.json.secret as string;
  // The previous step: the enable code must not make the current step look used for the login tests.
  const enable = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(secret, -1) } });
  expect(enable.status).toBe(200);
  return { ...u, secret, recoveryCodes: enable.json.recoveryCodes as string[] };
}

async function challengeFor(t: TestApp, username: string) {
  const res = await login(t, username);
  expect(res.status).toBe(200);
  expect(res.json.twoFactorRequired).toBe(true);
  return res.json.challenge as string;
}

describe.each(enginesFor('logic'))('two-factor sign-in on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets up an authenticator: secret and otpauth URL, nothing on until enabled with a code', async () => {
    const u = await registerUser(t);
    const wrongPassword = await call(t, 'POST', '/api/auth/2fa/totp/setup', {
      token: u.token,
      body: { currentPassword: 'not my password' },
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.json.code).toBe('WRONG_PASSWORD');

    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    expect(setup.status).toBe(200);
    expect(setup.json.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.json.otpauthUrl).toBe(`otpauth://totp/Olympus:${u.username}?secret=${setup.json.secret}&issuer=Olympus`);

    let me = await call(t, 'GET', '/api/auth/me', { token: u.token });
    expect(me.json.user.twoFactor).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    // Still off: the password alone signs in.
    expect((await login(t, u.username)).json.token).toEqual(expect.any(String));

    const bad = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields.code).toBeTruthy();
    const wrong = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(setup.json.secret, 5) } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('INVALID_TWO_FACTOR_CODE');

    const enable = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(setup.json.secret) } });
    expect(enable.status).toBe(200);
    const codes = enable.json.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    me = await call(t, 'GET', '/api/auth/me', { token: u.token });
    expect(me.json.user.twoFactor).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });

    const again = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    expect(again.status).toBe(409);
  });

  it('answers a challenge and never a token, cookie or session for the password alone', async () => {
    const u = await userWithTotp(t);
    const res = await login(t, u.username);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['challenge', 'methods', 'twoFactorRequired']);
    expect(res.json.methods).toEqual(['totp', 'recovery']);
    expect(res.headers.get('set-cookie')).toBeNull();
    // Nothing in the answer works as a bearer token, and no session was made for the user.
    const asBearer = await call(t, 'GET', '/api/auth/me', { token: res.json.challenge as string });
    expect(asBearer.status).toBe(401);
    const sessions = await call(t, 'GET', '/api/auth/sessions', { token: u.token });
    expect(sessions.json.sessions).toHaveLength(1);

    const done = await call(t, 'POST', '/api/login/2fa', { body: { challenge: res.json.challenge, code: codeAt(u.secret) } });
    expect(done.status).toBe(200);
    expect(done.json.user.username).toBe(u.username);
    const me = await call(t, 'GET', '/api/auth/me', { token: done.json.token as string });
    expect(me.status).toBe(200);
    expect(me.json.user._id).toBe(u.userId);
  });

  it('never accepts the same code (same step) twice, not even in parallel', async () => {
    const u = await userWithTotp(t);
    const code = codeAt(u.secret);
    const first = await call(t, 'POST', '/api/login/2fa', { body: { challenge: await challengeFor(t, u.username), code } });
    expect(first.status).toBe(200);
    const replay = await call(t, 'POST', '/api/login/2fa', { body: { challenge: await challengeFor(t, u.username), code } });
    expect(replay.status).toBe(400);
    expect(replay.json.code).toBe('INVALID_TWO_FACTOR_CODE');
    expect(replay.json.error).toMatch(/already been used/);
    // An older step than the one used is refused too.
    const older = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), code: codeAt(u.secret, -1) },
    });
    expect(older.status).toBe(400);

    const next = codeAt(u.secret, 1);
    const [a, b] = await Promise.all([
      challengeFor(t, u.username).then((challenge) => call(t, 'POST', '/api/login/2fa', { body: { challenge, code: next } })),
      challengeFor(t, u.username).then((challenge) => call(t, 'POST', '/api/login/2fa', { body: { challenge, code: next } })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it('accepts one step of drift either way and nothing beyond', async () => {
    const u = await userWithTotp(t);
    const far = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), code: codeAt(u.secret, 3) },
    });
    expect(far.status).toBe(400);
    const ahead = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), code: codeAt(u.secret, 1) },
    });
    expect(ahead.status).toBe(200);
  });

  it('uses a challenge once', async () => {
    const u = await userWithTotp(t);
    const challenge = await challengeFor(t, u.username);
    const ok = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: codeAt(u.secret) } });
    expect(ok.status).toBe(200);
    const reused = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: codeAt(u.secret, 1) } });
    expect(reused.status).toBe(401);
    expect(reused.json.code).toBe('CHALLENGE_EXPIRED');
  });

  it('refuses an expired challenge', async () => {
    const u = await userWithTotp(t);
    const challenge = await challengeFor(t, u.username);
    await t.database.pool.query(`UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [u.userId]);
    const res = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: codeAt(u.secret) } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('CHALLENGE_EXPIRED');
    const unknown = await call(t, 'POST', '/api/login/2fa', { body: { challenge: 'x'.repeat(43), code: codeAt(u.secret) } });
    expect(unknown.json.code).toBe('CHALLENGE_EXPIRED');
  });

  it('kills a challenge after 5 wrong codes, even if the sixth is right', async () => {
    const u = await userWithTotp(t);
    const challenge = await challengeFor(t, u.username);
    const wrong = codeAt(u.secret, 10);
    for (let i = 1; i <= 4; i++) {
      const res = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: wrong } });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('INVALID_TWO_FACTOR_CODE');
      expect(res.json.details.attemptsLeft).toBe(5 - i);
    }
    const fifth = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: wrong } });
    expect(fifth.json.code).toBe('CHALLENGE_EXPIRED');
    const right = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: codeAt(u.secret) } });
    expect(right.status).toBe(401);
    expect(right.json.code).toBe('CHALLENGE_EXPIRED');
  });

  it("refuses a challenge of one account answered with another account's code", async () => {
    const a = await userWithTotp(t);
    const b = await userWithTotp(t);
    const challengeOfA = await challengeFor(t, a.username);
    const withB = await call(t, 'POST', '/api/login/2fa', { body: { challenge: challengeOfA, code: codeAt(b.secret) } });
    expect(withB.status).toBe(400);
    const withBRecovery = await call(t, 'POST', '/api/login/2fa', { body: { challenge: challengeOfA, recoveryCode: b.recoveryCodes[0] } });
    expect(withBRecovery.status).toBe(400);
    // B's code and recovery code are still good for B, and A's challenge still signs in only A.
    const asA = await call(t, 'POST', '/api/login/2fa', { body: { challenge: challengeOfA, code: codeAt(a.secret) } });
    expect(asA.json.user._id).toBe(a.userId);
    const asB = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, b.username), recoveryCode: b.recoveryCodes[0] },
    });
    expect(asB.json.user._id).toBe(b.userId);
  });

  it('spends a recovery code once and counts what is left', async () => {
    const u = await userWithTotp(t);
    const code = u.recoveryCodes[3]!;
    // Case and dashes do not matter.
    const typed = code.toUpperCase().replace(/-/g, ' ');
    const ok = await call(t, 'POST', '/api/login/2fa', { body: { challenge: await challengeFor(t, u.username), recoveryCode: typed } });
    expect(ok.status).toBe(200);
    const me = await call(t, 'GET', '/api/auth/me', { token: ok.json.token as string });
    expect(me.json.user.twoFactor.recoveryCodesLeft).toBe(9);
    const spent = await call(t, 'POST', '/api/login/2fa', { body: { challenge: await challengeFor(t, u.username), recoveryCode: code } });
    expect(spent.status).toBe(400);
    expect(spent.json.error).toMatch(/recovery code/);
  });

  it('replaces recovery codes (old ones stop working)', async () => {
    const u = await userWithTotp(t);
    const res = await call(t, 'POST', '/api/auth/2fa/recovery-codes', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: codeAt(u.secret) },
    });
    expect(res.status).toBe(200);
    expect(res.json.recoveryCodes).toHaveLength(10);
    const old = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), recoveryCode: u.recoveryCodes[0] },
    });
    expect(old.status).toBe(400);
    const fresh = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), recoveryCode: res.json.recoveryCodes[0] },
    });
    expect(fresh.status).toBe(200);
  });

  it('turns two-factor off with the password and a code; the password alone signs in again', async () => {
    const u = await userWithTotp(t);
    const pending = await challengeFor(t, u.username);
    const noCode = await call(t, 'POST', '/api/auth/2fa/disable', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    expect(noCode.status).toBe(403);
    expect(noCode.json.code).toBe('TWO_FACTOR_REQUIRED');
    const wrongCode = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: codeAt(u.secret, 9) },
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.json.code).toBe('INVALID_TWO_FACTOR_CODE');
    const wrongPassword = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { currentPassword: 'nope nope nope', twoFactorCode: codeAt(u.secret) },
    });
    expect(wrongPassword.json.code).toBe('WRONG_PASSWORD');
    const off = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: u.recoveryCodes[1] },
    });
    expect(off.status).toBe(200);
    expect(off.json.twoFactor).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    // A sign-in that was waiting for its second step cannot finish any more.
    const late = await call(t, 'POST', '/api/login/2fa', { body: { challenge: pending, code: codeAt(u.secret) } });
    expect(late.status).toBe(401);
    const plain = await login(t, u.username);
    expect(plain.json.token).toEqual(expect.any(String));
    expect(plain.json.twoFactorRequired).toBeUndefined();
    const again = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: '123456' },
    });
    expect(again.status).toBe(409);
  });

  it('mails a security notice, once each, when two-factor is turned on, a recovery code is used and it is turned off', async () => {
    const u = await userWithTotp(t);
    const email = `${u.username}@example.com`;
    // Earlier tests' mails queue ahead of these on one send queue: give it time under load.
    await waitForMail(t, email, 'Two-factor sign-in was turned on', 1, 60_000);
    const used = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, u.username), recoveryCode: u.recoveryCodes[0] },
    });
    expect(used.status).toBe(200);
    const [notice] = await waitForMail(t, email, 'A recovery code was used to sign in', 1, 60_000);
    expect(notice!.text).toContain('Recovery codes left');
    expect(notice!.text).toContain('9');
    // No code or secret ever goes into a mail.
    expect(notice!.text).not.toContain(u.recoveryCodes[0]!);
    expect(notice!.text).not.toContain(u.secret);
    const off = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: u.recoveryCodes[1] },
    });
    expect(off.status).toBe(200);
    await waitForMail(t, email, 'Two-factor sign-in was turned off', 1, 60_000);
    // Each notice once: the jobs have run and nothing was sent twice.
    const subjects = (await mailTo(t, email)).map((m) => m.subject);
    for (const subject of [
      'Two-factor sign-in was turned on',
      'A recovery code was used to sign in',
      'Two-factor sign-in was turned off',
    ]) {
      expect(subjects.filter((x) => x === subject)).toHaveLength(1);
    }
  }, 240_000);

  it("moves a guest's tickets to the account after the second step, as login does", async () => {
    const u = await userWithTotp(t);
    const guest = await startGuest(t);
    const ticket = await call(t, 'POST', '/api/tickets/guest', {
      token: guest.token,
      headers: { 'guest-id': guest.guestId },
      body: { subject: 'Help with two-factor', message: 'My guest ticket should follow me.', category: 'general' },
    });
    expect(ticket.status).toBeLessThan(300);
    const first = await login(t, u.username, { guestId: guest.guestId }, guestCookie(guest));
    const done = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: first.json.challenge, code: codeAt(u.secret) },
      headers: guestCookie(guest),
    });
    expect(done.status).toBe(200);
    const mine = await call(t, 'GET', '/api/tickets', { token: done.json.token as string });
    expect(JSON.stringify(mine.json)).toContain('Help with two-factor');
    // The guest session is spent.
    expect((await call(t, 'GET', '/api/auth/me', { token: guest.token })).status).toBe(401);
  });

  it('answers clear 4xx for bad input on every new endpoint', async () => {
    const u = await registerUser(t);
    const cases: Array<[string, string, unknown, string | undefined]> = [
      ['POST', '/api/auth/2fa/totp/setup', {}, u.token],
      ['POST', '/api/auth/2fa/totp/enable', { code: 12 }, u.token],
      ['POST', '/api/auth/2fa/recovery-codes', { currentPassword: '' }, u.token],
      ['POST', '/api/auth/2fa/disable', { currentPassword: TEST_PASSWORD, twoFactorCode: 123456 }, u.token],
      ['POST', '/api/login/2fa', { challenge: 'abc' }, undefined],
      ['POST', '/api/login/2fa', { challenge: 'abc', code: '123456', recoveryCode: 'aaaa-bbbb-cccc' }, undefined],
      ['POST', '/api/login/passkey', { response: { id: 'x' } }, undefined],
      ['POST', '/api/auth/2fa/passkeys', { name: '', response: {} }, u.token],
    ];
    for (const [method, path, body, token] of cases) {
      const res = await call(t, method, path, { body, ...(token ? { token } : {}) });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(t, 'POST', '/api/auth/2fa/totp/setup', { body: { currentPassword: TEST_PASSWORD } })).status).toBe(401);
    const guest = await startGuest(t);
    expect(
      (await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: guest.token, body: { currentPassword: TEST_PASSWORD } })).status,
    ).toBe(403);
  });

  it("lets an admin turn off a user's two-factor with a reason, in the audit log", async () => {
    const u = await userWithTotp(t);
    const adminName = uniqueName('admin');
    const admin = await registerUser(t, { username: adminName });
    await t.database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
    const path = `/api/admin/users/${u.userId}/two-factor/reset`;
    expect((await call(t, 'POST', path, { token: u.token, body: { reason: 'checked id' } })).status).toBe(403);
    const noReason = await call(t, 'POST', path, { token: admin.token, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    const res = await call(t, 'POST', path, { token: admin.token, body: { reason: 'Lost phone; identity checked by video call' } });
    expect(res.status).toBe(200);
    expect(res.json.twoFactor).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    const audit = await call(t, 'GET', `/api/admin/audit?action=user.two_factor_reset&targetId=${u.userId}`, { token: admin.token });
    expect(audit.status).toBe(200);
    expect(audit.json.entries).toHaveLength(1);
    expect(audit.json.entries[0]).toMatchObject({ reason: 'Lost phone; identity checked by video call', actor: { username: adminName } });
    expect(audit.json.entries[0].before).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect((await login(t, u.username)).json.token).toEqual(expect.any(String));
    // The user is told, whoever did it.
    await waitForMail(t, `${u.username}@example.com`, 'Two-factor sign-in was turned off by support', 1, 60_000);
  }, 240_000);
});

describe.each(enginesFor('logic'))('two-factor throttling and staff rule on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { REQUIRE_STAFF_2FA: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('throttles wrong second-step codes per account across challenges, like wrong passwords', async () => {
    const u = await userWithTotp(t);
    const wrong = codeAt(u.secret, 10);
    for (let round = 0; round < 2; round++) {
      const challenge = await challengeFor(t, u.username);
      for (let i = 0; i < 5; i++) {
        const res = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: wrong } });
        // Four wrong codes (400), then the fifth ends the challenge (401 CHALLENGE_EXPIRED).
        expect(res.status).toBe(i < 4 ? 400 : 401);
      }
    }
    // Ten wrong codes in the window: even a right code on a fresh challenge is refused for now.
    const challenge = await challengeFor(t, u.username);
    const res = await call(t, 'POST', '/api/login/2fa', { body: { challenge, code: codeAt(u.secret) } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await userWithTotp(t);
    const fine = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: await challengeFor(t, other.username), code: codeAt(other.secret) },
    });
    expect(fine.status).toBe(200);
  });

  it('keeps staff without two-factor out of the console when REQUIRE_STAFF_2FA=1', async () => {
    const staff = await registerUser(t);
    await t.database.pool.query(`UPDATE users SET role = 'support' WHERE id = $1`, [staff.userId]);
    const before = await call(t, 'GET', '/api/admin/users', { token: staff.token });
    expect(before.status).toBe(403);
    expect(before.json.code).toBe('TWO_FACTOR_REQUIRED');
    const settings = await call(t, 'GET', '/api/auth/2fa', { token: staff.token });
    expect(settings.json).toEqual({ twoFactor: { totp: false, passkeys: 0, recoveryCodesLeft: 0 }, requiredForStaff: true });
    // Settings stay reachable, so they can set it up.
    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: staff.token, body: { currentPassword: TEST_PASSWORD } });
    expect(setup.status).toBe(200);
    expect(
      (await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: staff.token, body: { code: codeAt(setup.json.secret) } })).status,
    ).toBe(200);
    const after = await call(t, 'GET', '/api/admin/users', { token: staff.token });
    expect(after.status).toBe(200);
    // Plain users are still refused as before (not by this rule).
    const plain = await registerUser(t);
    const refused = await call(t, 'GET', '/api/admin/users', { token: plain.token });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('FORBIDDEN');
  });
});
