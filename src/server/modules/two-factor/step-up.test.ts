import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

// Decision 0205: on an account with two-factor on, every sensitive change needs a second factor in the
// same request. This file walks the list of those changes.

function codeAt(secret: string, offset = 0): string {
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

type User = Awaited<ReturnType<typeof registerUser>>;

/** Turns the authenticator app on (with the previous step's code, so the current one is still unused). */
async function turnOnTotp(t: TestApp, u: User, body: Record<string, unknown> = {}) {
  const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
  expect(setup.status).toBe(200);
  const secret = setup.json.secret as string;
  const enable = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(secret, -1), ...body } });
  expect(enable.status).toBe(200);
  return { secret, recoveryCodes: enable.json.recoveryCodes as string[] };
}

/** A passkey row as registration stores it (real assertions need an authenticator: see e2e/two-factor). */
async function addPasskeyRow(t: TestApp, userId: string): Promise<string> {
  const result = await t.database.pool.query(
    `INSERT INTO passkeys (user_id, credential_id, public_key, name) VALUES ($1, $2, 'AAAA', 'Laptop') RETURNING id`,
    [userId, `cred-${uniqueName()}`],
  );
  return (result.rows[0] as { id: string }).id;
}

async function makeAdmin(t: TestApp, u: User) {
  await t.database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [u.userId]);
}

interface Change {
  name: string;
  admin?: boolean;
  /** Whatever must exist before the change (an API key, a webhook, a passkey); answers the request. */
  prepare(t: TestApp, u: User): Promise<{ method: string; path: string; body: Record<string, unknown> }>;
  /** The status of the change made. */
  ok: number;
}

/** Every change that needs the second factor. */
const CHANGES: Change[] = [
  {
    name: 'change the email address',
    prepare: async (_t, u) => ({
      method: 'PUT',
      path: '/api/users/email',
      body: { email: `${u.username}-new@example.com`, currentPassword: TEST_PASSWORD },
    }),
    ok: 202,
  },
  {
    name: 'change the password',
    prepare: async () => ({
      method: 'POST',
      path: '/api/users/change-password',
      body: { currentPassword: TEST_PASSWORD, newPassword: 'another long passphrase 43' },
    }),
    ok: 200,
  },
  {
    name: 'turn two-factor off',
    prepare: async () => ({ method: 'POST', path: '/api/auth/2fa/disable', body: { currentPassword: TEST_PASSWORD } }),
    ok: 200,
  },
  {
    name: 'make new recovery codes',
    prepare: async () => ({ method: 'POST', path: '/api/auth/2fa/recovery-codes', body: { currentPassword: TEST_PASSWORD } }),
    ok: 200,
  },
  {
    name: 'remove a passkey',
    prepare: async (t, u) => ({ method: 'DELETE', path: `/api/auth/2fa/passkeys/${await addPasskeyRow(t, u.userId)}`, body: {} }),
    ok: 200,
  },
  {
    name: 'create an API key',
    admin: true,
    prepare: async () => ({ method: 'POST', path: '/api/admin/api-keys', body: { name: 'Shop' } }),
    ok: 201,
  },
  {
    name: 'revoke an API key',
    admin: true,
    prepare: async (t, u) => {
      // Made while two-factor is still off for this admin.
      const created = await call(t, 'POST', '/api/admin/api-keys', { token: u.token, body: { name: 'Old shop' } });
      expect(created.status).toBe(201);
      return { method: 'POST', path: `/api/admin/api-keys/${created.json.apiKey._id}/revoke`, body: {} };
    },
    ok: 200,
  },
  {
    name: "change a webhook's URL",
    prepare: async (t, u) => {
      const first = await call(t, 'PUT', '/api/users/webhook-settings', {
        token: u.token,
        body: { url: 'http://127.0.0.1:9/a', events: ['payment.finished'], enabled: true },
      });
      expect(first.status).toBe(200);
      return {
        method: 'PUT',
        path: '/api/users/webhook-settings',
        body: { url: 'http://127.0.0.1:9/b', events: ['payment.finished'], enabled: true },
      };
    },
    ok: 200,
  },
  {
    name: "rotate a webhook's secret",
    prepare: async (t, u) => {
      const first = await call(t, 'PUT', '/api/users/webhook-settings', {
        token: u.token,
        body: { url: 'http://127.0.0.1:9/a', events: ['payment.finished'], enabled: true },
      });
      expect(first.status).toBe(200);
      return { method: 'POST', path: '/api/users/webhook-settings/rotate-secret', body: {} };
    },
    ok: 200,
  },
];

describe.each(enginesFor('logic'))('second factor for sensitive changes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh account (an admin where the change needs one) prepared for the change, then two-factor on. */
  async function ready(change: Change) {
    const u = await registerUser(t);
    if (change.admin) await makeAdmin(t, u);
    const request = await change.prepare(t, u);
    const factor = await turnOnTotp(t, u);
    const send = (extra: Record<string, unknown>) =>
      call(t, request.method, request.path, { token: u.token, body: { ...request.body, ...extra } });
    return { u, request, send, ...factor };
  }

  for (const change of CHANGES) {
    it(`${change.name}: refused without a factor, refused with a wrong one, made with a right one`, async () => {
      const { send, secret } = await ready(change);

      const missing = await send({});
      expect(missing.status).toBe(403);
      expect(missing.json.code).toBe('TWO_FACTOR_REQUIRED');
      expect(missing.json.error).toMatch(/authenticator app/);
      // The methods the account has, so the browser knows what to offer (a passkey too where it has one).
      expect(missing.json.details.methods).toEqual(
        change.name === 'remove a passkey' ? ['totp', 'recovery', 'passkey'] : ['totp', 'recovery'],
      );

      const wrong = await send({ twoFactorCode: codeAt(secret, 10) });
      expect(wrong.status).toBe(400);
      expect(wrong.json.code).toBe('INVALID_TWO_FACTOR_CODE');
      expect(wrong.json.details.fields.twoFactorCode).toBeTruthy();

      const right = await send({ twoFactorCode: codeAt(secret) });
      expect(right.status, JSON.stringify(right.json)).toBe(change.ok);
    });
  }

  it('takes a recovery code once, and a code of the app once (no replay)', async () => {
    const change = CHANGES.find((c) => c.name === 'make new recovery codes')!;
    const { send, secret, recoveryCodes } = await ready(change);
    const code = codeAt(secret);
    expect((await send({ twoFactorCode: code })).status).toBe(200);
    const replay = await send({ twoFactorCode: code });
    expect(replay.status).toBe(400);
    expect(replay.json.error).toMatch(/already been used/);

    const fresh = await send({ twoFactorCode: codeAt(secret, 1) });
    expect(fresh.status).toBe(200);
    const newCodes = fresh.json.recoveryCodes as string[];
    // The old set was replaced; a new code works once (typed in upper case, with spaces).
    expect((await send({ twoFactorCode: recoveryCodes[0] })).status).toBe(400);
    expect((await send({ twoFactorCode: newCodes[0]!.toUpperCase().replace(/-/g, ' ') })).status).toBe(200);
    const spent = await send({ twoFactorCode: newCodes[0] });
    expect(spent.status).toBe(400);
    expect(spent.json.error).toMatch(/recovery code/);
  });

  it('leaves accounts without two-factor as they were', async () => {
    // Turning two-factor off and new recovery codes need it on; a passkey is itself two-factor.
    const without = CHANGES.filter((c) => !['turn two-factor off', 'make new recovery codes', 'remove a passkey'].includes(c.name));
    for (const change of without) {
      const u = await registerUser(t);
      if (change.admin) await makeAdmin(t, u);
      const request = await change.prepare(t, u);
      const res = await call(t, request.method, request.path, { token: u.token, body: request.body });
      expect(res.status, `${change.name}: ${JSON.stringify(res.json)}`).toBe(change.ok);
    }
  });

  it('asks an account with only a passkey for the passkey, and checks its answer against this session', async () => {
    const u = await registerUser(t);
    const passkeyId = await addPasskeyRow(t, u.userId);
    const remove = (body: Record<string, unknown>) => call(t, 'DELETE', `/api/auth/2fa/passkeys/${passkeyId}`, { token: u.token, body });
    const missing = await remove({});
    expect(missing.status).toBe(403);
    expect(missing.json.code).toBe('TWO_FACTOR_REQUIRED');
    expect(missing.json.details).toEqual({ methods: ['passkey'] });
    expect(missing.json.error).toMatch(/passkey/);
    // No authenticator app: a code is not a way in.
    const code = await remove({ twoFactorCode: '123456' });
    expect(code.status).toBe(400);
    expect(code.json.code).toBe('INVALID_TWO_FACTOR_CODE');

    const options = await call(t, 'POST', '/api/two-factor/step-up/passkey-options', { token: u.token });
    expect(options.status).toBe(200);
    expect(options.json.options.rpId).toBe('localhost');
    expect(options.json.options.allowCredentials).toHaveLength(1);
    const forged = await remove({
      twoFactorAssertion: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      },
    });
    expect(forged.status).toBe(400);
    expect(forged.json.code).toBe('INVALID_TWO_FACTOR_CODE');
    // Still there.
    expect((await call(t, 'GET', '/api/auth/2fa/passkeys', { token: u.token })).json.passkeys).toHaveLength(1);

    const none = await registerUser(t);
    expect((await call(t, 'POST', '/api/two-factor/step-up/passkey-options', { token: none.token })).status).toBe(400);
  });

  it('lets webhook events change without a factor, but not the URL', async () => {
    const u = await registerUser(t);
    const url = 'http://127.0.0.1:9/hook';
    expect(
      (await call(t, 'PUT', '/api/users/webhook-settings', { token: u.token, body: { url, events: ['payment.finished'], enabled: true } }))
        .status,
    ).toBe(200);
    const { secret } = await turnOnTotp(t, u);
    const events = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: u.token,
      body: { url, events: ['ticket.answered'], enabled: false },
    });
    expect(events.status).toBe(200);
    const moved = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: u.token,
      body: { url: 'http://127.0.0.1:9/elsewhere', events: ['ticket.answered'], enabled: false },
    });
    expect(moved.json.code).toBe('TWO_FACTOR_REQUIRED');
    const read = await call(t, 'GET', '/api/users/webhook-settings', { token: u.token });
    expect(read.json.url).toBe(url);
    const withCode = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: u.token,
      body: { url: 'http://127.0.0.1:9/elsewhere', events: ['ticket.answered'], enabled: false, twoFactorCode: codeAt(secret) },
    });
    expect(withCode.status).toBe(200);
  });

  it('ends the other sessions when the authenticator app is turned on, unless asked not to', async () => {
    const u = await registerUser(t);
    const other = await call(t, 'POST', '/api/login', { body: { username: u.username, password: TEST_PASSWORD, turnstileToken: 'ok' } });
    expect(other.status).toBe(200);
    expect((await call(t, 'GET', '/api/auth/me', { token: other.json.token as string })).status).toBe(200);
    await turnOnTotp(t, u);
    expect((await call(t, 'GET', '/api/auth/me', { token: other.json.token as string })).status).toBe(401);
    // The session that turned it on stays.
    expect((await call(t, 'GET', '/api/auth/me', { token: u.token })).status).toBe(200);

    const keeper = await registerUser(t);
    const second = await call(t, 'POST', '/api/login', {
      body: { username: keeper.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
    });
    await turnOnTotp(t, keeper, { signOutOtherSessions: false });
    expect((await call(t, 'GET', '/api/auth/me', { token: second.json.token as string })).status).toBe(200);
    expect((await call(t, 'GET', '/api/auth/me', { token: keeper.token })).status).toBe(200);
  });
});

describe.each(enginesFor('logic'))('second factor throttle on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts wrong step-up codes toward the sign-in second-step throttle', async () => {
    const u = await registerUser(t);
    const { secret } = await turnOnTotp(t, u);
    const wrong = codeAt(secret, 10);
    for (let i = 0; i < 10; i++) {
      const res = await call(t, 'POST', '/api/auth/2fa/recovery-codes', {
        token: u.token,
        body: { currentPassword: TEST_PASSWORD, twoFactorCode: wrong },
      });
      expect(res.status).toBe(400);
    }
    // Ten wrong codes: a right one is refused for now, here and at sign-in.
    const right = await call(t, 'POST', '/api/auth/2fa/recovery-codes', {
      token: u.token,
      body: { currentPassword: TEST_PASSWORD, twoFactorCode: codeAt(secret) },
    });
    expect(right.status).toBe(429);
    const login = await call(t, 'POST', '/api/login', { body: { username: u.username, password: TEST_PASSWORD, turnstileToken: 'ok' } });
    const second = await call(t, 'POST', '/api/login/2fa', { body: { challenge: login.json.challenge, code: codeAt(secret, 1) } });
    expect(second.status).toBe(429);
  });
});
