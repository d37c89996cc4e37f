import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

// Real assertions need an authenticator: the browser tests (e2e/two-factor) sign in with Chromium's
// virtual one. Here: options, single-use challenges, refusals and the bare-IP rule.
const fakeAssertion = (id = 'AAAA') => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
});

describe.each(enginesFor('logic'))('passkeys on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes registration options for discoverable passkeys with the host of PUBLIC_URL as relying party', async () => {
    const u = await registerUser(t);
    const list = await call(t, 'GET', '/api/auth/2fa/passkeys', { token: u.token });
    expect(list.json).toEqual({ passkeys: [], available: true, reason: null });
    const res = await call(t, 'POST', '/api/auth/2fa/passkeys/options', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.json.options.rp).toEqual({ name: 'Olympus', id: 'localhost' });
    expect(res.json.options.user.name).toBe(u.username);
    expect(res.json.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(res.json.options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // Someone else's passkey list and removal are out of reach.
    const other = await registerUser(t);
    const remove = await call(t, 'DELETE', '/api/auth/2fa/passkeys/00000000-0000-4000-8000-000000000000', { token: other.token });
    expect(remove.status).toBe(404);
  });

  it('refuses a registration or sign-in answer that does not verify', async () => {
    const u = await registerUser(t);
    const reg = await call(t, 'POST', '/api/auth/2fa/passkeys', {
      token: u.token,
      body: { name: 'Laptop', response: { ...fakeAssertion(), response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } } },
    });
    expect(reg.status).toBe(400);
    const options = await call(t, 'POST', '/api/login/passkey/options', { body: {} });
    expect(options.status).toBe(200);
    expect(options.json.options.rpId).toBe('localhost');
    expect(options.json.options.allowCredentials ?? []).toEqual([]);
    const login = await call(t, 'POST', '/api/login/passkey', { body: { response: fakeAssertion() } });
    expect(login.status).toBe(401);
    expect(login.json.code).toBe('PASSKEY_FAILED');
    expect(login.json.token).toBeUndefined();
  });

  it('offers the passkey second step only for a live challenge of an account that has a passkey', async () => {
    const u = await registerUser(t);
    const expired = await call(t, 'POST', '/api/login/passkey/options', { body: { challenge: 'not-a-live-challenge' } });
    expect(expired.status).toBe(401);
    expect(expired.json.code).toBe('CHALLENGE_EXPIRED');

    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    const OTPAuth = await import('otpauth');
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json.secret as string) }).generate({
      timestamp: Date.now() - 30_000,
    });
    expect((await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code } })).status).toBe(200);
    const login = () => call(t, 'POST', '/api/login', { body: { username: u.username, password: TEST_PASSWORD, turnstileToken: 'ok' } });
    const first = await login();
    expect(first.json.methods).toEqual(['totp', 'recovery']);
    const none = await call(t, 'POST', '/api/login/passkey/options', { body: { challenge: first.json.challenge } });
    expect(none.status).toBe(400);

    await t.database.pool.query(
      `INSERT INTO passkeys (user_id, credential_id, public_key, name, transports) VALUES ($1, 'cred-1', 'AAAA', 'Phone', '["internal"]')`,
      [u.userId],
    );
    const second = await login();
    expect(second.json.methods).toEqual(['totp', 'recovery', 'passkey']);
    const options = await call(t, 'POST', '/api/login/passkey/options', { body: { challenge: second.json.challenge } });
    expect(options.status).toBe(200);
    expect(options.json.options.allowCredentials).toEqual([{ id: 'cred-1', type: 'public-key', transports: ['internal'] }]);
    const me = await call(t, 'GET', '/api/auth/me', { token: u.token });
    expect(me.json.user.twoFactor).toEqual({ totp: true, passkeys: 1, recoveryCodesLeft: 10 });
    // A forged passkey answer is a wrong answer: it counts against the challenge and yields no token.
    const forged = await call(t, 'POST', '/api/login/2fa', {
      body: { challenge: second.json.challenge, passkey: fakeAssertion('cred-1') },
    });
    expect(forged.status).toBe(400);
    expect(forged.json.details.attemptsLeft).toBe(4);
  });
});

describe('passkeys on a bare IP address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMITS: '0', PUBLIC_URL: 'http://127.0.0.1:3000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says why passkeys are unavailable and points to localhost or a domain', async () => {
    const u = await registerUser(t);
    const list = await call(t, 'GET', '/api/auth/2fa/passkeys', { token: u.token });
    expect(list.json.available).toBe(false);
    expect(list.json.reason).toMatch(/bare IP address.*localhost/);
    for (const [path, token, body] of [
      ['/api/auth/2fa/passkeys/options', u.token, { currentPassword: TEST_PASSWORD }],
      ['/api/login/passkey/options', undefined, {}],
    ] as const) {
      const res = await call(t, 'POST', path, { body, ...(token ? { token } : {}) });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('PASSKEYS_UNAVAILABLE');
      expect(res.json.error).toMatch(/localhost/);
      // The address, for the web to word the reason in the reader's language.
      expect(res.json.details).toEqual({ host: expect.stringMatching(/^[\d.:]+$/) });
    }
  });
});
