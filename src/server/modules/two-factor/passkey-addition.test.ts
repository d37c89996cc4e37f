import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { linkToken, waitForMail } from '#server/test/mailbox.js';
import { SoftAuthenticator } from '#server/test/soft-authenticator.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * Adding a passkey is a sensitive change (docs/security.md, decision 0205): a stolen session alone
 * cannot add one. The password is needed, and the second factor when two-factor is on; the options are
 * good for the session that proved them only; the owner is told; and a password reset removes every
 * passkey unless the owner unticks the box. Each sequence runs with a real (software) authenticator.
 */

const ORIGIN = 'http://localhost:3000';

describe.each(enginesFor('logic'))('adding a passkey on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: ORIGIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  const options = (token: string, body: Record<string, unknown> = {}) => call(t, 'POST', '/api/auth/2fa/passkeys/options', { token, body });
  const add = (token: string, response: unknown, name = 'Phone') =>
    call(t, 'POST', '/api/auth/2fa/passkeys', { token, body: { name, response } });
  const passkeysOf = async (token: string) => (await call(t, 'GET', '/api/auth/2fa/passkeys', { token })).json.passkeys as unknown[];

  /** Signs in with the passkey alone, as "Sign in with a passkey" does; answers the status. */
  async function passkeySignIn(authenticator: SoftAuthenticator): Promise<number> {
    const opts = await call(t, 'POST', '/api/login/passkey/options', { body: {} });
    expect(opts.status).toBe(200);
    return (await call(t, 'POST', '/api/login/passkey', { body: { response: authenticator.authenticate(opts.json.options) } })).status;
  }

  async function addPasskey(token: string, authenticator: SoftAuthenticator, extra: Record<string, unknown> = {}): Promise<void> {
    const opts = await options(token, { currentPassword: TEST_PASSWORD, ...extra });
    expect(opts.status, JSON.stringify(opts.json)).toBe(200);
    const res = await add(token, authenticator.register(opts.json.options));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
  }

  it('a session alone gets no options: the password is asked for, and a wrong one is refused', async () => {
    const owner = await registerUser(t);
    const none = await options(owner.token);
    expect(none.status).toBe(400);
    expect(none.json.details.fields.currentPassword).toBe('Current password is required');
    const wrong = await options(owner.token, { currentPassword: 'not the password at all' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.details.fields.currentPassword).toBe('Current password is incorrect');
    expect(await passkeysOf(owner.token)).toEqual([]);
  });

  it('a registration answer without options of its own is refused, even a perfectly signed one', async () => {
    const owner = await registerUser(t);
    const thief = new SoftAuthenticator(ORIGIN);
    // Options the thief could make up: a challenge the server never issued.
    const forged = thief.register({
      challenge: Buffer.from('a challenge nobody issued!!').toString('base64url'),
      rp: { id: 'localhost' },
      user: { id: 'x' },
    });
    expect((await add(owner.token, forged)).status).toBe(400);
    expect(await passkeysOf(owner.token)).toEqual([]);
  });

  it('with the password the owner adds a passkey, is told by mail, and signs in with it', async () => {
    const owner = await registerUser(t);
    const device = new SoftAuthenticator(ORIGIN);
    await addPasskey(owner.token, device);
    expect(await passkeysOf(owner.token)).toHaveLength(1);
    const [notice] = await waitForMail(t, `${owner.username}@example.com`, 'A passkey was added to your account');
    expect(notice!.text).toContain('Phone');
    expect(await passkeySignIn(device)).toBe(200);
  });

  it('options are good only for the session that proved the password', async () => {
    const owner = await registerUser(t);
    const stolen = (
      await call(t, 'POST', '/api/login', { body: { username: owner.username, password: TEST_PASSWORD, turnstileToken: 'ok' } })
    ).json.token as string;
    const opts = await options(owner.token, { currentPassword: TEST_PASSWORD });
    expect(opts.status).toBe(200);
    const thief = new SoftAuthenticator(ORIGIN);
    const answer = thief.register(opts.json.options);
    // The other session (a thief holding it) cannot use options it did not prove the password for.
    expect((await add(stolen, answer)).status).toBe(400);
    expect(await passkeysOf(owner.token)).toEqual([]);
    // The challenge was not spent by the refused call: the owner's own session still completes.
    expect((await add(owner.token, answer)).status).toBe(201);
  });

  it('with two-factor on, the password alone is not enough: the second factor is asked for too', async () => {
    const owner = await registerUser(t);
    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: owner.token, body: { currentPassword: TEST_PASSWORD } });
    const OTPAuth = await import('otpauth');
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json.secret as string) });
    expect(
      (
        await call(t, 'POST', '/api/auth/2fa/totp/enable', {
          token: owner.token,
          body: { code: totp.generate({ timestamp: Date.now() - 30_000 }), signOutOtherSessions: false },
        })
      ).status,
    ).toBe(200);

    const passwordOnly = await options(owner.token, { currentPassword: TEST_PASSWORD });
    expect(passwordOnly.status).toBe(403);
    expect(passwordOnly.json.code).toBe('TWO_FACTOR_REQUIRED');
    const device = new SoftAuthenticator(ORIGIN);
    await addPasskey(owner.token, device, { twoFactorCode: totp.generate() });
    expect(await passkeysOf(owner.token)).toHaveLength(1);
  });

  it('a password reset removes every passkey by default; unticked, they stay', async () => {
    for (const removePasskeys of [undefined, false] as const) {
      const owner = await registerUser(t);
      const device = new SoftAuthenticator(ORIGIN);
      await addPasskey(owner.token, device);
      expect(await passkeySignIn(device)).toBe(200);

      const email = `${owner.username}@example.com`;
      expect((await call(t, 'POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(202);
      const [mail] = await waitForMail(t, email, 'Reset your password');
      const token = linkToken(mail!, '/reset-password');
      const body = { token, password: 'a brand new passphrase 7', ...(removePasskeys === false ? { removePasskeys } : {}) };
      expect((await call(t, 'POST', '/api/auth/reset-password', { body })).status).toBe(200);

      const signIn = await call(t, 'POST', '/api/login', {
        body: { username: owner.username, password: 'a brand new passphrase 7', turnstileToken: 'ok' },
      });
      const kept = await passkeysOf(signIn.json.token as string);
      if (removePasskeys === false) {
        expect(kept).toHaveLength(1);
        expect(await passkeySignIn(device)).toBe(200);
      } else {
        expect(kept).toEqual([]);
        expect(await passkeySignIn(device)).toBe(401);
      }
    }
  });
});
