import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, startGuest } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

// The language stored on the account (decision 0326): null until chosen, one of LOCALES after.
describe.each(enginesFor('database'))('the account language on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is null on a new account, then stored, and shown by GET /api/auth/me', async () => {
    const reg = await registerUser(t);
    expect(reg.user.locale).toBeNull();

    const put = await call(t, 'PUT', '/api/users/locale', { token: reg.token, body: { locale: 'es' } });
    expect(put.status).toBe(200);
    expect(put.json.user.locale).toBe('es');

    const me = await call(t, 'GET', '/api/auth/me', { token: reg.token });
    expect(me.status).toBe(200);
    expect(me.json.user.locale).toBe('es');

    await call(t, 'PUT', '/api/users/locale', { token: reg.token, body: { locale: 'de' } });
    expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).json.user.locale).toBe('de');
  });

  it('accepts only the languages offered, and stores nothing otherwise', async () => {
    const reg = await registerUser(t);
    for (const locale of ['fr', 'pseudo', 'EN', '', null]) {
      const res = await call(t, 'PUT', '/api/users/locale', { token: reg.token, body: { locale } });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(t, 'GET', '/api/auth/me', { token: reg.token })).json.user.locale).toBeNull();
  });

  it('is for accounts only: a guest and an anonymous caller are refused', async () => {
    const guest = await startGuest(t);
    const asGuest = await call(t, 'PUT', '/api/users/locale', {
      token: guest.token,
      headers: { 'guest-id': guest.guestId },
      body: { locale: 'ru' },
    });
    expect(asGuest.status).toBe(403);
    expect((await call(t, 'PUT', '/api/users/locale', { body: { locale: 'ru' } })).status).toBe(401);
  });
});
