import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { isSandboxProviderRoute, listSandboxRoutes } from './sandbox.routes.js';

/**
 * Production with `ALLOW_SANDBOX=1` (docs/security.md#sandboxes-in-production): every sandbox route is
 * tried. The providers' own surface answers as the real provider would; every tool (the mail, Telegram
 * and Discord viewers with their reset links and messages, the controls that move money) refuses an
 * anonymous caller with 401 and a signed-in user who is not staff with 403, and serves staff, by bearer
 * token, or by the web app's `token` cookie for a page the browser opens (GET only).
 */

type Account = Awaited<ReturnType<typeof registerUser>>;

/** A concrete path for a route template (any value: the point is who gets past the door). */
const concrete = (url: string) =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => (name === 'token' ? '0:sandbox-bot-token' : `1${name.length}`));

describe.each(enginesFor('logic'))('the sandboxes in production on %s', (engine) => {
  let t: TestApp;
  let staff: Account;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', NODE_ENV: 'production', ALLOW_SANDBOX: '1', JWT_SECRET: 'x'.repeat(40) });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    user = await registerUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function raw(method: string, path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(method === 'GET' ? {} : { body: '{}' }),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return res.status;
  }

  it("mounts every sandbox, and each route is either the provider's own or a tool", () => {
    const routes = listSandboxRoutes(t.app);
    const urls = routes.map((r) => r.url);
    for (const expected of [
      '/sandbox/mail',
      '/sandbox/mail/messages',
      '/sandbox/telegram',
      '/sandbox/discord',
      '/sandbox/nowpayments/payments/:paymentId/status',
      '/sandbox/swap/exchanges/:id/status',
      '/sandbox/nowpayments/v1/payment',
    ]) {
      expect(urls).toContain(expected);
    }
    expect(routes.filter((r) => !isSandboxProviderRoute(r.url)).length).toBeGreaterThanOrEqual(12);
  });

  it('refuses every tool to anonymous callers (401) and to users who are not staff (403)', async () => {
    const tools = listSandboxRoutes(t.app).filter((r) => !isSandboxProviderRoute(r.url));
    const problems: string[] = [];
    for (const { method, url } of tools) {
      const path = concrete(url);
      const anonymous = await raw(method, path);
      if (anonymous !== 401) problems.push(`${method} ${url} anonymous: ${anonymous}`);
      const asUser = await raw(method, path, { authorization: `Bearer ${user.token}` });
      if (asUser !== 403) problems.push(`${method} ${url} user: ${asUser}`);
      const userCookie = await raw(method, path, { cookie: `token=${encodeURIComponent(user.token)}` });
      if (userCookie !== (method === 'GET' ? 403 : 401)) problems.push(`${method} ${url} user's cookie: ${userCookie}`);
      const asStaff = await raw(method, path, { authorization: `Bearer ${staff.token}` });
      if (asStaff === 401 || asStaff === 403 || asStaff >= 500) problems.push(`${method} ${url} staff: ${asStaff}`);
      // A change never rides on the cookie alone (it is SameSite=Lax, and the controls move money).
      const staffCookie = await raw(method, path, { cookie: `token=${encodeURIComponent(staff.token)}` });
      if (method === 'GET' ? staffCookie === 401 || staffCookie === 403 || staffCookie >= 500 : staffCookie !== 401) {
        problems.push(`${method} ${url} staff's cookie: ${staffCookie}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the providers' own surface open, as the real providers are", async () => {
    const providers = listSandboxRoutes(t.app).filter((r) => isSandboxProviderRoute(r.url));
    expect(providers.length).toBeGreaterThanOrEqual(15);
    const problems: string[] = [];
    for (const { method, url } of providers) {
      const status = await raw(method, concrete(url));
      // The provider refuses bad input or a missing key in its own way; what matters is that our staff door is not there.
      if (status >= 500) problems.push(`${method} ${url}: ${status}`);
    }
    expect(problems).toEqual([]);
    // The sign-in bot check still works for everyone (login and registration call it).
    const siteverify = await call(t, 'POST', '/sandbox/turnstile/v0/siteverify', {
      body: { secret: 'sandbox-turnstile-secret', response: 'ok' },
    });
    expect(siteverify.status).toBe(200);
  });

  it('no longer hands anyone the reset links in the mail sandbox', async () => {
    const victim = await registerUser(t);
    const email = `${victim.username}@example.com`;
    expect((await call(t, 'POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(202);
    await t.app.jobs.drain();
    const anonymous = await call(t, 'GET', `/sandbox/mail/messages?to=${encodeURIComponent(email)}`);
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.json)).not.toContain('reset-password');
    const asStaff = await call(t, 'GET', `/sandbox/mail/messages?to=${encodeURIComponent(email)}`, { token: staff.token });
    expect(asStaff.status).toBe(200);
    expect((asStaff.json.messages as Array<{ subject: string }>).map((m) => m.subject)).toContain('Reset your password');
  });
});

describe('the sandboxes outside production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answer a newcomer trying the product without signing in', async () => {
    expect((await call(t, 'GET', '/sandbox/mail/messages?to=nobody@example.com')).status).toBe(200);
    expect((await fetch(`${t.url}/sandbox/telegram`)).status).toBe(200);
  });
});
