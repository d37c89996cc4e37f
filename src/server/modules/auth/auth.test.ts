import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, uniqueName } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { users } from '#server/modules/users/users.tables.js';

type Json = Record<string, unknown>;

/**
 * Runs `fn` with the clock `ms` ahead: the app runs in this process, so faking Date alone moves what
 * it reads as now (token expiry, session lifetimes) while its timers and sockets keep real time.
 */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

async function register(t: TestApp, overrides: Json = {}, headers: Record<string, string> = {}) {
  const username = (overrides.username as string) ?? uniqueName();
  const res = await call(t, 'POST', '/api/register', {
    body: { username, email: `${username}@example.com`, password: 'a long passphrase 42', turnstileToken: 'ok', ...overrides },
    headers,
  });
  return { ...res, username, token: res.json.token as string, user: res.json.user as Json };
}

function decodeClaims(token: string): Json {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Json;
}

describe.each(enginesFor('database'))('accounts and sessions on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // Rate limits are tested on an instance of their own below; here many accounts share one address.
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('guest sessions', () => {
    it('starts a guest session with an unguessable guestId and a guest token', async () => {
      const res = await call(t, 'POST', '/api/guest');
      expect(res.status).toBe(201);
      const guestId = res.json.guestId as string;
      expect(guestId).toMatch(/^g_[A-Za-z0-9_-]{32}$/);
      expect(res.json.user).toEqual({ _id: guestId, role: 'guest', isGuest: true });
      const claims = decodeClaims(res.json.token as string);
      expect(claims).toMatchObject({ sub: guestId, isGuest: true, role: 'guest' });

      const me = await call(t, 'GET', '/api/auth/me', { token: res.json.token as string, headers: { 'guest-id': guestId } });
      expect(me.status).toBe(200);
      expect(me.json.user).toEqual({ _id: guestId, role: 'guest', isGuest: true });
    });

    it('refuses a Guest-ID header that does not match the guest token', async () => {
      const a = await call(t, 'POST', '/api/guest');
      const b = await call(t, 'POST', '/api/guest');
      const res = await call(t, 'GET', '/api/auth/me', {
        token: a.json.token as string,
        headers: { 'guest-id': b.json.guestId as string },
      });
      expect(res.status).toBe(401);
    });

    it('does not refresh guest tokens', async () => {
      const guest = await call(t, 'POST', '/api/guest');
      const res = await call(t, 'POST', '/api/refresh-token', { token: guest.json.token as string });
      expect(res.status).toBe(403);
    });

    it('spends the guest session when the guest registers with its guestId', async () => {
      const guest = await call(t, 'POST', '/api/guest');
      const reg = await register(t, { guestId: guest.json.guestId }, { cookie: `token=${guest.json.token as string}` });
      expect(reg.status).toBe(201);
      const old = await call(t, 'GET', '/api/auth/me', { token: guest.json.token as string });
      expect(old.status).toBe(401);
    });

    it("leaves the guest session alone when the guestId comes without that guest's token", async () => {
      const guest = await call(t, 'POST', '/api/guest');
      const reg = await register(t, { guestId: guest.json.guestId });
      expect(reg.status).toBe(201);
      const still = await call(t, 'GET', '/api/auth/me', {
        token: guest.json.token as string,
        headers: { 'guest-id': guest.json.guestId as string },
      });
      expect(still.status).toBe(200);
    });
  });

  describe('registration', () => {
    it('answers {user, token} with a fresh account holding 0 credits', async () => {
      const reg = await register(t);
      expect(reg.status).toBe(201);
      expect(reg.user).toMatchObject({
        username: reg.username,
        role: 'user',
        subroles: [],
        credits: 0,
        discord: null,
        telegram: null,
        onboardingCompleted: false,
      });
      expect(reg.user._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(reg.user.referralCode).toMatch(/^[A-Z0-9]{8}$/);
      expect(reg.json).not.toHaveProperty('user.passwordHash');
      expect(decodeClaims(reg.token)).toMatchObject({ sub: reg.user._id, isGuest: false, role: 'user' });
    });

    it('answers field-level errors for bad input', async () => {
      const res = await call(t, 'POST', '/api/register', {
        body: { username: 'a', email: 'not-an-email', password: 'short', turnstileToken: 'ok' },
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      const fields = (res.json.details as { fields: Record<string, string> }).fields;
      expect(Object.keys(fields).sort()).toEqual(['email', 'password', 'username']);
      expect(fields.password).toBe('Password must be at least 8 characters');
      const long = await register(t, { password: 'x'.repeat(129) });
      expect(long.status).toBe(400);
      expect((long.json.details as { fields: Record<string, string> }).fields.password).toBe('Password must be at most 128 characters');
      expect((await register(t, { password: 'y'.repeat(128) })).status).toBe(201);
    });

    it('refuses one of the most common passwords', async () => {
      const res = await register(t, { password: 'password123' });
      expect(res.status).toBe(400);
      expect((res.json.details as { fields: Record<string, string> }).fields.password).toMatch(/too common/);
    });

    it('keeps usernames and emails unique case-insensitively', async () => {
      const first = await register(t);
      const again = await register(t, { username: first.username.toUpperCase(), email: `other-${first.username}@example.com` });
      expect(again.status).toBe(409);
      expect((again.json.details as { fields: Record<string, string> }).fields.username).toBe('That username is taken');
    });

    it('records the referrer of a referral code and refuses an unknown one', async () => {
      const referrer = await register(t);
      const referred = await register(t, { referralCode: (referrer.user.referralCode as string).toLowerCase() });
      expect(referred.status).toBe(201);
      const [row] = await t.database.db
        .select({ referredBy: users.referredBy })
        .from(users)
        .where(eq(users.id, referred.user._id as string));
      expect(row?.referredBy).toBe(referrer.user._id);
      expect(referred.user.referralCode).not.toBe(referrer.user.referralCode);
      const unknown = await register(t, { referralCode: 'ZZZZZZZZ' });
      expect(unknown.status).toBe(400);
      expect((unknown.json.details as { fields: Record<string, string> }).fields.referralCode).toBe('Unknown referral code');
    });

    it('refuses a failed bot check', async () => {
      const res = await register(t, { turnstileToken: 'sandbox-fail' });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('BOT_CHECK_FAILED');
    });
  });

  describe('login', () => {
    it('answers {user, token} with a 1-day session, or 30 days with rememberMe', async () => {
      const reg = await register(t);
      const short = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'a long passphrase 42', turnstileToken: 'ok', rememberMe: false },
      });
      expect(short.status).toBe(200);
      expect((short.json.user as Json)._id).toBe(reg.user._id);
      const shortClaims = decodeClaims(short.json.token as string) as { exp: number; iat: number };
      expect(shortClaims.exp - shortClaims.iat).toBeGreaterThan(86_400 - 60);
      expect(shortClaims.exp - shortClaims.iat).toBeLessThanOrEqual(86_400);

      const long = await call(t, 'POST', '/api/login', {
        body: { username: reg.username.toUpperCase(), password: 'a long passphrase 42', turnstileToken: 'ok', rememberMe: true },
      });
      expect(long.status).toBe(200);
      const longClaims = decodeClaims(long.json.token as string) as { exp: number; iat: number };
      expect(longClaims.exp - longClaims.iat).toBeGreaterThan(30 * 86_400 - 60);
    });

    it('answers the same for an unknown user and a wrong password', async () => {
      const reg = await register(t);
      const wrong = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'not the password', turnstileToken: 'ok', rememberMe: false },
      });
      const unknown = await call(t, 'POST', '/api/login', {
        body: { username: uniqueName('ghost'), password: 'not the password', turnstileToken: 'ok', rememberMe: false },
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json).toEqual(unknown.json);
      expect(wrong.json).toEqual({ error: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
    });

    it('takes about as long for an unknown user as for a wrong password', async () => {
      const reg = await register(t);
      const timed = async (username: string) => {
        const started = performance.now();
        const res = await call(t, 'POST', '/api/login', {
          body: { username, password: 'not the password', turnstileToken: 'ok', rememberMe: false },
        });
        expect(res.status).toBe(401);
        return performance.now() - started;
      };
      await timed(uniqueName('ghost'));
      const wrong: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        wrong.push(await timed(reg.username));
        unknown.push(await timed(uniqueName('ghost')));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
      // Both pay for one argon2id verification; skipping it for unknown users would be several times faster.
      expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
      expect(median(wrong)).toBeGreaterThan(median(unknown) / 3);
    });

    it('refuses a failed bot check before looking at the password', async () => {
      const reg = await register(t);
      const res = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'a long passphrase 42', turnstileToken: 'sandbox-fail', rememberMe: false },
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('BOT_CHECK_FAILED');
      expect(res.json).not.toHaveProperty('token');
    });

    it('refuses malformed bodies with 400 and oversized ones with 413, never 500', async () => {
      const malformed = await call(t, 'POST', '/api/login', { body: '{"username": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.json.error).toEqual(expect.any(String));
      const wrongTypes = await call(t, 'POST', '/api/login', { body: { username: ['x'], password: { $gt: '' }, turnstileToken: 1 } });
      expect(wrongTypes.status).toBe(400);
      const huge = await call(t, 'POST', '/api/login', {
        body: { username: 'x'.repeat(100_000), password: 'y', turnstileToken: 'ok' },
      });
      expect(huge.status).toBe(413);
      expect(huge.json.code).toBe('BODY_TOO_LARGE');
      expect(JSON.stringify(huge.json)).not.toMatch(/at \w+ \(/);
    });
  });

  describe('rate limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp(engine);
    });
    afterAll(async () => {
      await limited?.close();
    });

    it('refuses with 429 and Retry-After after repeated wrong passwords, even with the right one', async () => {
      const reg = await register(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await call(limited, 'POST', '/api/login', {
          body: { username: reg.username, password: `wrong password ${i}`, turnstileToken: 'ok', rememberMe: false },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      const right = await call(limited, 'POST', '/api/login', {
        body: { username: reg.username, password: 'a long passphrase 42', turnstileToken: 'ok', rememberMe: false },
      });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('counts wrong passwords sent all at once (no burst gets past the limit)', async () => {
      const reg = await register(limited);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(limited, 'POST', '/api/login', {
            body: { username: reg.username, password: `wrong password ${i}`, turnstileToken: 'ok', rememberMe: false },
          }).then((res) => res.status),
        ),
      );
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    });

    it('counts failures per account, whether it is named by username or by email', async () => {
      const reg = await register(limited);
      const email = `${reg.username}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await call(limited, 'POST', '/api/login', {
          body: {
            username: i % 2 === 0 ? reg.username : email.toUpperCase(),
            password: `wrong password ${i}`,
            turnstileToken: 'ok',
            rememberMe: false,
          },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    });

    it('limits registrations and guest sessions per address with 429 and Retry-After', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await register(limited)).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      const guests: number[] = [];
      for (let i = 0; i < 32; i++) guests.push((await call(limited, 'POST', '/api/guest')).status);
      expect(guests.slice(0, 30).every((s) => s === 201)).toBe(true);
      const refused = await call(limited, 'POST', '/api/guest');
      expect(refused.status).toBe(429);
      expect(refused.json.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The wait is in the details too, for the web to word in the reader's language (src/web/lib/error-messages.ts).
      expect(refused.json.details).toEqual({ retryAfter: Number(refused.headers.get('retry-after')) });
      expect(refused.json.error).toBe(`Too many requests. Try again in ${refused.json.details.retryAfter} seconds.`);
    });
  });

  describe('tokens', () => {
    it('refuses a token signed with another key', async () => {
      const reg = await register(t);
      const claims = decodeClaims(reg.token);
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('an attacker secret that is long enough!!'));
      expect((await call(t, 'GET', '/api/auth/me', { token: forged })).status).toBe(401);
    });

    it("refuses an unsigned 'alg: none' token", async () => {
      const reg = await register(t);
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const payload = reg.token.split('.')[1];
      expect((await call(t, 'GET', '/api/auth/me', { token: `${header}.${payload}.` })).status).toBe(401);
    });

    it('refuses an expired token', async () => {
      const reg = await register(t);
      const claims = decodeClaims(reg.token);
      const expired = await new SignJWT({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 60 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(t.config.jwtSecret);
      expect((await call(t, 'GET', '/api/auth/me', { token: expired })).status).toBe(401);
    });

    it('refuses a token once it expires, even one it has accepted before', async () => {
      const reg = await register(t);
      const claims = decodeClaims(reg.token);
      const shortLived = await new SignJWT({ ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 2 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(t.config.jwtSecret);
      expect((await call(t, 'GET', '/api/auth/me', { token: shortLived })).status).toBe(200);
      expect((await later(2100, () => call(t, 'GET', '/api/auth/me', { token: shortLived }))).status).toBe(401);
    });

    it('refuses a revoked token after logout', async () => {
      const reg = await register(t);
      expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).status).toBe(200);
      const out = await call(t, 'POST', '/api/logout', { token: reg.token });
      expect(out.json).toEqual({ message: 'Logout successful' });
      expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).status).toBe(401);
    });

    it('refreshes a token for the same session', async () => {
      const reg = await register(t);
      const res = await later(1100, () => call(t, 'POST', '/api/refresh-token', { token: reg.token }));
      expect(res.status).toBe(200);
      const fresh = res.json.token as string;
      expect(decodeClaims(fresh).sid).toBe(decodeClaims(reg.token).sid);
      expect((decodeClaims(fresh).exp as number) > (decodeClaims(reg.token).exp as number)).toBe(true);
      expect((await call(t, 'GET', '/api/auth/me', { token: fresh })).status).toBe(200);
      // Logging out ends the session: neither token works, and neither can be refreshed.
      await call(t, 'POST', '/api/logout', { token: fresh });
      expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).status).toBe(401);
      expect((await call(t, 'POST', '/api/refresh-token', { token: reg.token })).status).toBe(401);
      expect((await call(t, 'POST', '/api/refresh-token', { token: fresh })).status).toBe(401);
    });

    it('refuses calls without a token', async () => {
      const res = await call(t, 'GET', '/api/auth/me');
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('NO_TOKEN');
    });
  });

  describe('account calls', () => {
    it("answers the account's own credits and 403 for another user's", async () => {
      const a = await register(t);
      const b = await register(t);
      const own = await call(t, 'GET', `/api/users/${a.user._id}/credits`, { token: a.token });
      expect(own).toMatchObject({ status: 200, json: { credits: 0 } });
      const other = await call(t, 'GET', `/api/users/${b.user._id}/credits`, { token: a.token });
      expect(other.status).toBe(403);
      const guest = await call(t, 'POST', '/api/guest');
      const asGuest = await call(t, 'GET', `/api/users/${a.user._id}/credits`, {
        token: guest.json.token as string,
        headers: { 'guest-id': guest.json.guestId as string },
      });
      expect(asGuest.status).toBe(403);
      expect((await call(t, 'GET', `/api/users/${a.user._id}/credits`)).status).toBe(401);
    });

    it('completes onboarding', async () => {
      const reg = await register(t);
      const res = await call(t, 'PUT', '/api/onboarding', { token: reg.token, body: { completed: true } });
      expect(res.status).toBe(200);
      expect((res.json.user as Json).onboardingCompleted).toBe(true);
    });

    it('lists active sessions and ends another one', async () => {
      const reg = await register(t);
      const second = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'a long passphrase 42', turnstileToken: 'ok', rememberMe: false },
      });
      const list = await call(t, 'GET', '/api/auth/sessions', { token: reg.token });
      const sessions = list.json.sessions as Array<{ _id: string; current: boolean }>;
      expect(sessions).toHaveLength(2);
      const other = sessions.find((s) => !s.current)!;
      expect((await call(t, 'DELETE', `/api/auth/sessions/${other._id}`, { token: reg.token })).status).toBe(200);
      expect((await call(t, 'GET', '/api/auth/me', { token: second.json.token as string })).status).toBe(401);
      expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).status).toBe(200);
    });

    it("cannot end another user's session", async () => {
      const a = await register(t);
      const b = await register(t);
      const bSessions = await call(t, 'GET', '/api/auth/sessions', { token: b.token });
      const bSession = (bSessions.json.sessions as Array<{ _id: string }>)[0]!;
      expect((await call(t, 'DELETE', `/api/auth/sessions/${bSession._id}`, { token: a.token })).status).toBe(404);
      expect((await call(t, 'GET', '/api/auth/me', { token: b.token })).status).toBe(200);
    });

    it('changes the password with the current one and ends the other sessions', async () => {
      const reg = await register(t);
      const other = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'a long passphrase 42', turnstileToken: 'ok', rememberMe: false },
      });
      const wrong = await call(t, 'POST', '/api/users/change-password', {
        token: reg.token,
        body: { currentPassword: 'nope nope nope', newPassword: 'another long passphrase' },
      });
      expect(wrong.status).toBe(400);
      const ok = await call(t, 'POST', '/api/users/change-password', {
        token: reg.token,
        body: { currentPassword: 'a long passphrase 42', newPassword: 'another long passphrase' },
      });
      expect(ok.status).toBe(200);
      expect((await call(t, 'GET', '/api/auth/me', { token: other.json.token as string })).status).toBe(401);
      expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).status).toBe(200);
      const login = await call(t, 'POST', '/api/login', {
        body: { username: reg.username, password: 'another long passphrase', turnstileToken: 'ok', rememberMe: false },
      });
      expect(login.status).toBe(200);
    });
  });
});
