import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { linkToken, mailTo, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

const PUBLIC_URL = 'https://olympus.example';

describe.each(enginesFor('logic'))('email flows through the mail sandbox (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { PUBLIC_URL, RATE_LIMITS: '0' });
  }, 180_000);
  afterAll(async () => t?.close());

  async function verificationToken(email: string) {
    const [mail] = await waitForMail(t, email, 'Confirm your email');
    return linkToken(mail!, '/verify-email');
  }

  async function resetToken(email: string, count = 1) {
    const mails = await waitForMail(t, email, 'Reset your password', count);
    return linkToken(mails[0]!, '/reset-password');
  }

  describe('verification', () => {
    it('registration sends a confirmation link built from PUBLIC_URL; the token verifies once and emailVerified follows', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      expect(account.user.emailVerified).toBe(false);
      const [mail] = await waitForMail(t, email, 'Confirm your email');
      expect(mail!.text).toContain(`${PUBLIC_URL}/verify-email?token=`);
      expect(mail!.html).toContain(`href="${PUBLIC_URL}/verify-email?token=`);
      const token = linkToken(mail!, '/verify-email');
      // 256 random bits, url-safe.
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const me = await call(t, 'GET', '/api/auth/me', { token: account.token });
      expect(me.json.user.emailVerified).toBe(false);

      const first = await call(t, 'POST', '/api/auth/verify-email', { body: { token } });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ success: true, emailVerified: true });
      // The account as /me reads it (the user cache may answer the old row for up to USER_CACHE_MS).
      await expect
        .poll(async () => (await call(t, 'GET', '/api/auth/me', { token: account.token })).json.user.emailVerified, { timeout: 5000 })
        .toBe(true);

      const again = await call(t, 'POST', '/api/auth/verify-email', { body: { token } });
      expect(again.status).toBe(400);
      expect(again.json.code).toBe('TOKEN_USED');

      const resend = await call(t, 'POST', '/api/auth/resend-verification', { token: account.token });
      expect(resend.status).toBe(409);
      expect(resend.json.code).toBe('ALREADY_VERIFIED');
    });

    it('only a hash of the token is stored', async () => {
      const account = await registerUser(t);
      const token = await verificationToken(`${account.username}@example.com`);
      const rows = await t.database.db.execute<{ token_hash: string }>(
        sql`SELECT token_hash FROM account_tokens WHERE user_id = ${account.userId}`,
      );
      expect(rows.rows).toHaveLength(1);
      expect(rows.rows[0]!.token_hash).not.toContain(token);
      expect(rows.rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('an expired link is refused with its reason; resend sends a new one that works', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const token = await verificationToken(email);
      await t.database.db.execute(
        sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${account.userId}`,
      );
      const expired = await call(t, 'POST', '/api/auth/verify-email', { body: { token } });
      expect(expired.status).toBe(400);
      expect(expired.json).toMatchObject({ code: 'TOKEN_EXPIRED' });

      const resend = await call(t, 'POST', '/api/auth/resend-verification', { token: account.token });
      expect(resend.status).toBe(202);
      const mails = await waitForMail(t, email, 'Confirm your email', 2);
      const fresh = linkToken(mails[0]!, '/verify-email');
      expect(fresh).not.toBe(token);
      expect((await call(t, 'POST', '/api/auth/verify-email', { body: { token: fresh } })).status).toBe(200);
    });

    it('resend needs a signed-in user', async () => {
      expect((await call(t, 'POST', '/api/auth/resend-verification')).status).toBe(401);
    });

    it('verifies only the account the link was made for', async () => {
      const a = await registerUser(t);
      const b = await registerUser(t);
      const tokenA = await verificationToken(`${a.username}@example.com`);
      // B sends A's token while signed in as B: A is verified, B is not.
      expect((await call(t, 'POST', '/api/auth/verify-email', { body: { token: tokenA }, token: b.token })).status).toBe(200);
      // A's account as /me reads it (the user cache may answer the old row for up to USER_CACHE_MS); B's is read after it.
      await expect
        .poll(async () => (await call(t, 'GET', '/api/auth/me', { token: a.token })).json.user.emailVerified, { timeout: 5000 })
        .toBe(true);
      expect((await call(t, 'GET', '/api/auth/me', { token: b.token })).json.user.emailVerified).toBe(false);
    });
  });

  describe('password reset', () => {
    it('answers the same 202 body for a registered and an unknown address, and mails only the registered one', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const unknown = `${uniqueName('nobody')}@example.com`;
      const known = await call(t, 'POST', '/api/auth/forgot-password', { body: { email: email.toUpperCase() } });
      const other = await call(t, 'POST', '/api/auth/forgot-password', { body: { email: unknown } });
      expect(known.status).toBe(202);
      expect(other.status).toBe(202);
      expect(known.json).toEqual(other.json);
      expect(known.json.success).toBe(true);
      await resetToken(email);
      // The request for the unknown address has been handled too (its job has run): nothing was sent.
      await t.app.jobs.drain();
      expect(await mailTo(t, unknown)).toEqual([]);
    });

    it('takes about the same time for a registered and an unknown address', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const time = async (address: string) => {
        const started = performance.now();
        const res = await call(t, 'POST', '/api/auth/forgot-password', { body: { email: address } });
        expect(res.status).toBe(202);
        return performance.now() - started;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 3; i++) {
        known.push(await time(email));
        unknown.push(await time(`${uniqueName('ghost')}@example.com`));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
      expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
    });

    it('resets the password: every session ends, the old password stops working, the address counts as verified, and a notice is sent', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const second = await call(t, 'POST', '/api/login', {
        body: { username: account.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      expect(second.status).toBe(200);
      await call(t, 'POST', '/api/auth/forgot-password', { body: { email } });
      const token = await resetToken(email);
      const newPassword = 'a brand new passphrase 7';

      const reset = await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: newPassword } });
      expect(reset.status).toBe(200);
      expect(reset.json.success).toBe(true);

      for (const old of [account.token, second.json.token as string]) {
        const me = await call(t, 'GET', '/api/auth/me', { token: old });
        expect(me.status).toBe(401);
      }
      const oldLogin = await call(t, 'POST', '/api/login', {
        body: { username: account.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      expect(oldLogin.status).toBe(401);
      const login = await call(t, 'POST', '/api/login', {
        body: { username: account.username, password: newPassword, turnstileToken: 'ok' },
      });
      expect(login.status).toBe(200);
      expect(login.json.user.emailVerified).toBe(true);

      const [notice] = await waitForMail(t, email, 'Your password was changed');
      expect(notice!.text).toContain('password of your Olympus account was just changed');

      const reused = await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'yet another passphrase 9' } });
      expect(reused.status).toBe(400);
      expect(reused.json.code).toBe('TOKEN_USED');
    });

    it('a newer request makes the older link invalid', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      await call(t, 'POST', '/api/auth/forgot-password', { body: { email } });
      const older = await resetToken(email, 1);
      await call(t, 'POST', '/api/auth/forgot-password', { body: { email } });
      const newer = await resetToken(email, 2);
      expect(newer).not.toBe(older);
      const stale = await call(t, 'POST', '/api/auth/reset-password', { body: { token: older, password: 'the stale link passphrase' } });
      expect(stale.status).toBe(400);
      expect(stale.json.code).toBe('TOKEN_SUPERSEDED');
      expect(
        (await call(t, 'POST', '/api/auth/reset-password', { body: { token: newer, password: 'the fresh link passphrase' } })).status,
      ).toBe(200);
    });

    it('an expired reset link is refused, and a verification token is not a reset token', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const verification = await verificationToken(email);
      const wrongPurpose = await call(t, 'POST', '/api/auth/reset-password', {
        body: { token: verification, password: 'some long passphrase' },
      });
      expect(wrongPurpose.status).toBe(400);
      expect(wrongPurpose.json.code).toBe('TOKEN_INVALID');

      await call(t, 'POST', '/api/auth/forgot-password', { body: { email } });
      const token = await resetToken(email);
      await t.database.db.execute(
        sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${account.userId} AND purpose = 'reset_password'`,
      );
      const expired = await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'some long passphrase' } });
      expect(expired.status).toBe(400);
      expect(expired.json.code).toBe('TOKEN_EXPIRED');
      // The password did not change.
      expect(
        (await call(t, 'POST', '/api/login', { body: { username: account.username, password: TEST_PASSWORD, turnstileToken: 'ok' } }))
          .status,
      ).toBe(200);
    });

    it('the new password follows the register rules', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      await call(t, 'POST', '/api/auth/forgot-password', { body: { email } });
      const token = await resetToken(email);
      const short = await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'short' } });
      expect(short.status).toBe(400);
      const common = await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'password123' } });
      expect(common.status).toBe(400);
      expect(common.json.error).toMatch(/too common/);
      // Refusals did not spend the link.
      expect((await call(t, 'POST', '/api/auth/reset-password', { body: { token, password: 'finally a good passphrase' } })).status).toBe(
        200,
      );
    });
  });

  describe('hostile input on the new endpoints: clear 4xx, never 500', () => {
    const bodies: unknown[] = [
      undefined,
      {},
      { token: '' },
      { token: 42 },
      { token: null },
      { token: ['a'] },
      { token: 'x'.repeat(5000) },
      { token: "' OR 1=1 --" },
      { token: 'A'.repeat(43) },
      '{"token":',
    ];
    for (const path of ['/api/auth/verify-email', '/api/auth/reset-password', '/api/auth/confirm-email-change']) {
      it(`${path}`, async () => {
        for (const body of bodies) {
          const res = await call(t, 'POST', path, {
            body: body === undefined ? undefined : body,
            headers: body === undefined ? { 'content-type': 'application/json' } : {},
          });
          expect(res.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          expect(typeof res.json.error).toBe('string');
        }
      });
    }
    it('/api/auth/forgot-password', async () => {
      for (const body of [
        {},
        { email: 'not an address' },
        { email: 'a'.repeat(400) + '@x.io' },
        { email: ['a@b.c'] },
        { email: { $ne: null } },
      ]) {
        const res = await call(t, 'POST', '/api/auth/forgot-password', { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
    });
    it('/api/users/email', async () => {
      const account = await registerUser(t);
      for (const body of [
        {},
        { email: 'nope', currentPassword: TEST_PASSWORD },
        { email: 'a@b.co' },
        { email: 'a@b.co', currentPassword: 'x'.repeat(500) },
      ]) {
        const res = await call(t, 'PUT', '/api/users/email', { body, token: account.token });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await call(t, 'PUT', '/api/users/email', { body: { email: 'a@b.co', currentPassword: TEST_PASSWORD } })).status).toBe(401);
    });
  });
});

describe.each(enginesFor('logic'))('password reset rate limits (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 180_000);
  afterAll(async () => t?.close());

  it('per address: the 4th request within the hour for one address is refused, for registered and unknown addresses alike', async () => {
    for (const email of [`${uniqueName('limit')}@example.com`, `${uniqueName('limit')}@example.com`]) {
      for (let i = 0; i < 3; i++) expect((await call(t, 'POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(202);
      const fourth = await call(t, 'POST', '/api/auth/forgot-password', { body: { email: email.toUpperCase() } });
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('per IP: many addresses from one address are refused after 20', async () => {
    let limited = false;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await call(t, 'POST', '/api/auth/forgot-password', { body: { email: `${uniqueName('ip')}@example.com` } });
      limited = res.status === 429;
    }
    expect(limited).toBe(true);
  });
});
