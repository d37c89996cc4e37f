import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '#shared/constants';
import { api, ApiError, configureApiClient, NETWORK_MESSAGE, refreshAccessToken, TIMEOUT_MESSAGE } from './api-client';
import { storage } from './storage';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';

let server: ScriptedApiServer;
let redirects: number;

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  localStorage.clear();
  redirects = 0;
  window.history.replaceState(null, '', '/dashboard');
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => void redirects++ });
});
afterEach(() => {
  configureApiClient(null);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const hits = (path: string) => server.requests.filter((r) => r.path === path);

describe('API client headers', () => {
  it('sends the bearer token and the Guest-ID header when they are stored', async () => {
    const token = makeToken();
    storage.setToken(token);
    storage.setGuestId('g_guest');
    server.on('GET', '/api/things', { body: { ok: true } });

    await expect(api.get('/api/things')).resolves.toEqual({ ok: true });

    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers['guest-id']).toBe('g_guest');
  });

  it('sends neither header when nothing is stored', async () => {
    server.on('GET', '/api/things', { body: {} });
    await api.get('/api/things');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.headers['guest-id']).toBeUndefined();
  });

  it.each(['/api/login', '/api/register', '/api/csrf-token'])('leaves both headers off %s', async (path) => {
    storage.setToken(makeToken());
    storage.setGuestId('g_guest');
    server.on('POST', path, { body: {} });
    await api.post(path, { a: 1 });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.headers['guest-id']).toBeUndefined();
  });

  it('never sends the token or guestId to another origin, nor refreshes for it', async () => {
    storage.setToken(makeToken({ expInSeconds: 10 }));
    storage.setGuestId('g_guest');
    const elsewhere = server.url.replace('127.0.0.1', 'localhost');
    server.on('GET', '/api/things', { status: 401, body: { error: 'Nope', code: 'NO_TOKEN' } });
    await expect(api.get(`${elsewhere}/api/things`)).rejects.toMatchObject({ status: 401 });
    await expect(api.get(`//localhost:${new URL(server.url).port}/api/things`)).rejects.toMatchObject({ status: 401 });
    expect(hits('/api/things')).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['guest-id']).toBeUndefined();
    }
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(redirects).toBe(0);
  });

  it('leaves both headers off a path that resolves to login', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/login', { body: {} });
    await api.post('/api/things/../login?x=1', {});
    expect(server.requests[0]?.path).toBe('/api/login');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends cookies with every request and JSON bodies as JSON', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    server.on('PUT', '/api/onboarding', { body: {} });
    await api.put('/api/onboarding', { completed: true });
    expect(spy.mock.calls[0]?.[1]?.credentials).toBe('include');
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.body).toEqual({ completed: true });
  });
});

describe('API client errors', () => {
  it('rejects with the server error field, code, status and field details', async () => {
    server.on('POST', '/api/register', {
      status: 400,
      body: { error: 'Check the highlighted fields', code: 'VALIDATION_ERROR', details: { fields: { username: 'Username is taken' } } },
    });
    const error = await api.post('/api/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'Check the highlighted fields', code: 'VALIDATION_ERROR', fromServer: true });
    expect((error as ApiError).fieldErrors).toEqual({ username: 'Username is taken' });
  });

  it('takes the message from details or error_description when there is no error field (docs/product.md#errors)', async () => {
    server.on('POST', '/api/a', { status: 400, body: { details: 'Code already used' } });
    server.on('POST', '/api/b', { status: 400, body: { error_description: 'Invalid "code" in request.' } });
    expect(await api.post('/api/a', {}).catch((e: unknown) => e)).toMatchObject({ message: 'Code already used', fromServer: true });
    expect(await api.post('/api/b', {}).catch((e: unknown) => e)).toMatchObject({ message: 'Invalid "code" in request.' });
  });

  it('says so when the server sent no error text', async () => {
    server.on('GET', '/api/things', { status: 502 });
    const error = (await api.get('/api/things').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.fromServer).toBe(false);
  });

  it('reports an unreachable server as a network error', async () => {
    configureApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const error = (await api.get('/api/things').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', message: NETWORK_MESSAGE });
  });

  it('gives up after the timeout with a clear error', async () => {
    server.on('GET', '/api/slow', { delayMs: 500, body: {} });
    const error = (await api.get('/api/slow', { timeoutMs: 100 }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT', message: TIMEOUT_MESSAGE });
  });

  it('waits 30 seconds by default before timing out', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let seen = 0;
    server.on('GET', '/api/hang', () => {
      seen++;
      return new Promise(() => undefined);
    });
    const outcome = api.get('/api/hang').then(
      () => 'resolved',
      (e: ApiError) => e.code,
    );
    // Real event-loop turns (vi.waitFor would move the fake clock) until the request reached the server.
    while (seen === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    const pending = await Promise.race([outcome, Promise.resolve('pending')]);
    expect(pending).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('TIMEOUT');
  });
});

describe('API client token freshness', () => {
  it('refreshes a token within 300 s of expiry before the request and uses the new one', async () => {
    const stale = makeToken({ expInSeconds: 299 });
    const fresh = makeToken({ expInSeconds: 86_400 });
    storage.setToken(stale);
    server.on('POST', '/api/refresh-token', { body: { token: fresh } });
    server.on('GET', '/api/things', { body: {} });

    await api.get('/api/things');

    expect(server.requests.map((r) => r.path)).toEqual(['/api/refresh-token', '/api/things']);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${stale}`);
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(storage.getToken()).toBe(fresh);
    expect(document.cookie).toContain(`token=${fresh}`);
  });

  it('does not refresh a token with more than 300 s left', async () => {
    storage.setToken(makeToken({ expInSeconds: 301 }));
    server.on('GET', '/api/things', { body: {} });
    await api.get('/api/things');
    expect(hits('/api/refresh-token')).toHaveLength(0);
  });

  it('treats an unreadable token as expired', async () => {
    storage.setToken('not-a-token');
    server.on('POST', '/api/refresh-token', { body: { token: makeToken() } });
    server.on('GET', '/api/things', { body: {} });
    await api.get('/api/things');
    expect(hits('/api/refresh-token')).toHaveLength(1);
  });

  it('never refreshes a guest token', async () => {
    const guestToken = makeToken({ expInSeconds: 10, isGuest: true });
    storage.setToken(guestToken);
    storage.setGuestId('g_guest');
    server.on('GET', '/api/things', { body: {} });
    await api.get('/api/things');
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${guestToken}`);
  });

  it('never refreshes for guest ticket paths', async () => {
    storage.setToken(makeToken({ expInSeconds: 10 }));
    server.on('GET', '/api/tickets/guest/abc', { status: 401, body: { error: 'Invalid or expired token', code: 'INVALID_TOKEN' } });
    await expect(api.get('/api/tickets/guest/abc')).rejects.toMatchObject({ status: 401 });
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(redirects).toBe(0);
  });

  it('goes ahead with the current token when the early refresh fails', async () => {
    const stale = makeToken({ expInSeconds: 100 });
    storage.setToken(stale);
    server.on('POST', '/api/refresh-token', { status: 503, body: { error: 'Unavailable', code: 'UNAVAILABLE' } });
    server.on('GET', '/api/things', { body: { ok: 1 } });
    await expect(api.get('/api/things')).resolves.toEqual({ ok: 1 });
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${stale}`);
  });
});

describe('API client after a 401', () => {
  it('refreshes and retries the request once', async () => {
    const old = makeToken();
    const fresh = makeToken({ expInSeconds: 7200 });
    storage.setToken(old);
    server.on('POST', '/api/refresh-token', { body: { token: fresh } });
    server.on('GET', '/api/things', (r) =>
      r.headers.authorization === `Bearer ${fresh}`
        ? { body: { ok: true } }
        : { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } },
    );

    await expect(api.get('/api/things')).resolves.toEqual({ ok: true });
    expect(server.requests.map((r) => r.path)).toEqual(['/api/things', '/api/refresh-token', '/api/things']);
    expect(redirects).toBe(0);
  });

  it('retries only once', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { body: { token: makeToken() } });
    server.on('GET', '/api/things', { status: 401, body: { error: 'Nope', code: 'SESSION_ENDED' } });
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401, message: 'Nope' });
    expect(hits('/api/things')).toHaveLength(2);
    expect(hits('/api/refresh-token')).toHaveLength(1);
  });

  it('sends the visitor to /login and drops the token when the refresh fails', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    server.on('GET', '/api/things', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(redirects).toBe(1);
    expect(storage.getToken()).toBeNull();
    expect(hits('/api/things')).toHaveLength(1);
  });

  it('sends the visitor to /login when the refresh returns no token', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { body: {} });
    server.on('GET', '/api/things', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    await expect(api.get('/api/things')).rejects.toBeInstanceOf(ApiError);
    expect(redirects).toBe(1);
  });

  it('sends a visitor without any token to /login', async () => {
    server.on('GET', '/api/things', { status: 401, body: { error: 'Authentication required', code: 'NO_TOKEN' } });
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(redirects).toBe(1);
  });

  it('does not redirect from the sign-in pages themselves', async () => {
    window.history.replaceState(null, '', '/login');
    server.on('GET', '/api/auth/me', { status: 401, body: { error: 'Authentication required', code: 'NO_TOKEN' } });
    await expect(api.get('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(redirects).toBe(0);
  });

  it('passes a wrong-password 401 from login straight to the caller', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/login', { status: 401, body: { error: 'Invalid username or password', code: 'INVALID_CREDENTIALS' } });
    await expect(api.post('/api/login', {})).rejects.toMatchObject({ status: 401, message: 'Invalid username or password' });
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(redirects).toBe(0);
  });

  it('lets a guest 401 reach the caller without refreshing', async () => {
    storage.setToken(makeToken({ isGuest: true }));
    storage.setGuestId('g_guest');
    storage.setUserType('guest');
    server.on('GET', '/api/things', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(hits('/api/refresh-token')).toHaveLength(0);
    expect(redirects).toBe(0);
  });

  it('shares one refresh between requests that fail together', async () => {
    const fresh = makeToken({ expInSeconds: 7200 });
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { delayMs: 50, body: { token: fresh } });
    server.on('GET', '/api/things', (r) =>
      r.headers.authorization === `Bearer ${fresh}` ? { body: {} } : { status: 401, body: { error: 'x', code: 'x' } },
    );
    await Promise.all([api.get('/api/things'), api.get('/api/things'), api.get('/api/things')]);
    expect(hits('/api/refresh-token')).toHaveLength(1);
  });
});

describe('refreshAccessToken', () => {
  it('fails with "No token to refresh" when no token is stored', async () => {
    await expect(refreshAccessToken()).rejects.toThrow('No token to refresh');
    expect(server.requests).toHaveLength(0);
  });

  it('fails with "No token received" when the answer has none', async () => {
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { body: { token: '' } });
    await expect(refreshAccessToken()).rejects.toThrow('No token received');
  });

  it('keeps the 30-day cookie lifetime of a remember-me token', async () => {
    const fresh = makeToken({ lifetimeSeconds: 30 * 86_400, expInSeconds: 30 * 86_400 });
    storage.setToken(makeToken());
    server.on('POST', '/api/refresh-token', { body: { token: fresh } });
    const setCookie = vi.spyOn(document, 'cookie', 'set');
    await refreshAccessToken();
    expect(setCookie.mock.calls.at(-1)?.[0]).toMatch(/^token=.*; Path=\/; Max-Age=2592000; SameSite=lax/);
  });
});
