import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_CHECK_DELAY_MS, STORAGE_KEYS } from '#shared/constants';
import type { User } from '#shared/schemas/auth';
import { api, configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { queryClient } from '#web/lib/query-client';
import '#web/test/render';
import { initialSessionState, onUserLogin, useSessionStore, type LoginInput, type RegisterInput } from '../stores/session-store';
import { creditsQueryOptions, useCredits } from './get-credits';
import { sessionUserQueryOptions } from './get-session-user';
import { checkSession, startGuestSession } from './session-calls';
import { useCompleteOnboarding, useLogin, useLogout, useRegister } from './session-mutations';
import { sessionKeys } from './session-keys';

let server: ScriptedApiServer;
let redirects: number;
const session = () => useSessionStore.getState();
const hits = (path: string) => server.requests.filter((r) => r.path === path);
/** What the query cache holds for the session: the user and their balance (docs/decisions/0245). */
const cachedUser = () => queryClient.getQueryData(sessionKeys.user) ?? null;
const cachedCredits = (userId: string) => queryClient.getQueryData(sessionKeys.credits(userId));

/** A mutation hook's result, rendered in the app's query client as a screen would. */
function hook<T>(use: () => T): T {
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: queryClient }, children);
  return renderHook(use, { wrapper }).result.current;
}
const login = (input: LoginInput) => hook(useLogin).mutateAsync(input);
const register = (input: RegisterInput) => hook(useRegister).mutateAsync(input);
const logout = () => hook(useLogout).mutateAsync();

const GUEST_ID = `g_${'a'.repeat(32)}`;
const user: User = {
  _id: '6f1c2c1e-0000-4000-8000-000000000001',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'user',
  subroles: ['beta'],
  credits: 12.5,
  discord: null,
  telegram: null,
  onboardingCompleted: false,
  referralCode: 'ADA123',
  locale: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  localStorage.clear();
  for (const name of ['token', 'guestId']) document.cookie = `${name}=; Path=/; Max-Age=0`;
  redirects = 0;
  window.history.replaceState(null, '', '/');
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => void redirects++ });
  useSessionStore.setState(initialSessionState);
});
afterEach(() => {
  configureApiClient(null);
  vi.restoreAllMocks();
});

describe('session state', () => {
  it('keeps the client fields of docs/product.md#browser-state (user and credits are in the query cache), signed out and unchecked at first', () => {
    expect(Object.keys(initialSessionState).sort()).toEqual([
      'error',
      'guestId',
      'isAuthenticated',
      'isGuest',
      'isLoading',
      'lastCheck',
      'sessionChecked',
      'token',
      'userId',
      'userType',
    ]);
    expect(initialSessionState).toMatchObject({ isAuthenticated: false, isGuest: false, sessionChecked: false, token: null, userId: null });
  });
});

describe('checkSession (the start-up check)', () => {
  it('makes a stored guestId with a live token a guest session, without calling the server', async () => {
    const token = makeToken({ isGuest: true, sub: GUEST_ID });
    storage.setToken(token);
    storage.setGuestId(GUEST_ID);
    await checkSession();
    expect(session()).toMatchObject({
      isGuest: true,
      isAuthenticated: false,
      userType: 'guest',
      guestId: GUEST_ID,
      token,
      sessionChecked: true,
      isLoading: false,
    });
    expect(session().userId).toBe(GUEST_ID);
    expect(server.requests).toHaveLength(0);
  });

  it('clears a guest session whose token has run out (guests cannot refresh)', async () => {
    storage.setToken(makeToken({ isGuest: true, expInSeconds: 60 }));
    storage.setGuestId(GUEST_ID);
    await checkSession();
    expect(session()).toMatchObject({ isGuest: false, guestId: null, token: null, sessionChecked: true, error: 'Authentication failed' });
    expect(storage.getGuestId()).toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('clears a stored guestId without a token', async () => {
    storage.setGuestId(GUEST_ID);
    await checkSession();
    expect(session()).toMatchObject({
      isGuest: false,
      guestId: null,
      token: null,
      sessionChecked: true,
      isLoading: false,
      error: 'No token found',
    });
    expect(storage.getGuestId()).toBeNull();
  });

  it('clears the session when no token is stored', async () => {
    localStorage.setItem(STORAGE_KEYS.userRole, 'user');
    await checkSession();
    expect(session()).toMatchObject({
      isAuthenticated: false,
      userId: null,
      token: null,
      sessionChecked: true,
      isLoading: false,
      error: 'No token found',
    });
    expect(localStorage.getItem(STORAGE_KEYS.userRole)).toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('waits 500 ms, fetches the user and signs them in', async () => {
    const token = makeToken();
    storage.setToken(token);
    server.on('GET', '/api/auth/me', { body: { user } });
    const started = Date.now();
    await checkSession();
    expect(hits('/api/auth/me')[0]!.at - started).toBeGreaterThanOrEqual(AUTH_CHECK_DELAY_MS - 5);
    expect(session()).toMatchObject({
      isAuthenticated: true,
      isGuest: false,
      userType: 'user',
      token,
      userId: user._id,
      sessionChecked: true,
      isLoading: false,
      error: null,
    });
    expect(cachedUser()).toEqual(user);
    expect(cachedCredits(user._id)).toBe(12.5);
    expect(storage.getUserRole()).toBe('user');
    expect(storage.getUserSubroles()).toEqual(['beta']);
  });

  it('refreshes an expired token first, then fetches the user with the new one', async () => {
    const fresh = makeToken({ expInSeconds: 86_400 });
    storage.setToken(makeToken({ expInSeconds: 100 }));
    server.on('POST', '/api/refresh-token', { body: { token: fresh } });
    server.on('GET', '/api/auth/me', { body: { user } });
    await checkSession();
    expect(server.requests.map((r) => r.path)).toEqual(['/api/refresh-token', '/api/auth/me']);
    expect(hits('/api/auth/me')[0]?.headers.authorization).toBe(`Bearer ${fresh}`);
    expect(session()).toMatchObject({ isAuthenticated: true, token: fresh });
  });

  it('treats an unreadable token as expired and clears the session when the refresh fails', async () => {
    storage.setToken('garbage');
    server.on('POST', '/api/refresh-token', { status: 401, body: { error: 'Invalid or expired token', code: 'INVALID_TOKEN' } });
    await checkSession();
    expect(hits('/api/auth/me')).toHaveLength(0);
    expect(session()).toMatchObject({
      isAuthenticated: false,
      token: null,
      userId: null,
      sessionChecked: true,
      isLoading: false,
      error: 'Token refresh failed',
    });
    expect(storage.getToken()).toBeNull();
    expect(redirects).toBe(0);
  });

  it('clears the session when the refresh answers no token', async () => {
    storage.setToken(makeToken({ expInSeconds: 100 }));
    server.on('POST', '/api/refresh-token', { body: {} });
    await checkSession();
    expect(hits('/api/auth/me')).toHaveLength(0);
    expect(session()).toMatchObject({ isAuthenticated: false, token: null, sessionChecked: true, error: 'Token refresh failed' });
    expect(storage.getToken()).toBeNull();
  });

  it('clears the session when the user cannot be fetched', async () => {
    storage.setToken(makeToken());
    storage.setUserRole('user');
    server.on('GET', '/api/auth/me', { status: 500, body: { error: 'Internal error', code: 'INTERNAL' } });
    await checkSession();
    expect(session()).toMatchObject({
      isAuthenticated: false,
      userId: null,
      token: null,
      sessionChecked: true,
      isLoading: false,
      error: 'User fetch failed',
    });
    expect(cachedUser()).toBeNull();
    expect(storage.getToken()).toBeNull();
    expect(storage.getUserRole()).toBeNull();
  });

  it('starts signed out when the check itself breaks, instead of loading forever', async () => {
    vi.spyOn(storage, 'getGuestId').mockImplementation(() => {
      throw new Error('storage broke');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await checkSession();
    expect(session()).toMatchObject({ isAuthenticated: false, sessionChecked: true, isLoading: false, error: 'Authentication failed' });
  });

  it('signs in as the guest the server names when the token belongs to a guest', async () => {
    const token = makeToken({ isGuest: true, sub: GUEST_ID });
    storage.setToken(token);
    server.on('GET', '/api/auth/me', { body: { user: { _id: GUEST_ID, role: 'guest', isGuest: true } } });
    await checkSession();
    expect(session()).toMatchObject({ isGuest: true, userType: 'guest', guestId: GUEST_ID });
    expect(storage.getGuestId()).toBe(GUEST_ID);
  });
});

describe('login', () => {
  const input = { username: 'ada', password: 'correct horse', turnstileToken: 'sandbox-pass', rememberMe: false };

  it('signs in, stores the token, role and subroles, takes credits from the user and sends the guestId', async () => {
    const token = makeToken();
    storage.setGuestId(GUEST_ID);
    server.on('POST', '/api/login', { body: { user, token } });
    const cookieWrites = vi.spyOn(document, 'cookie', 'set');

    await expect(login(input)).resolves.toEqual(user);

    expect(server.requests[0]?.body).toEqual({ ...input, guestId: GUEST_ID });
    expect(session()).toMatchObject({
      isAuthenticated: true,
      isGuest: false,
      userType: 'user',
      token,
      userId: user._id,
      error: null,
      isLoading: false,
    });
    expect(cachedUser()).toEqual(user);
    expect(cachedCredits(user._id)).toBe(12.5);
    expect(storage.getToken()).toBe(token);
    expect(storage.getUserRole()).toBe('user');
    expect(storage.getUserSubroles()).toEqual(['beta']);
    expect(storage.getUserType()).toBe('user');
    expect(storage.getGuestId()).toBeNull();
    expect(cookieWrites.mock.calls.map((c) => c[0]).find((c) => c.startsWith('token='))).toContain('Max-Age=86400; SameSite=lax');
  });

  it('keeps the token cookie for 30 days with remember me', async () => {
    server.on('POST', '/api/login', { body: { user, token: makeToken({ lifetimeSeconds: 30 * 86_400 }) } });
    const cookieWrites = vi.spyOn(document, 'cookie', 'set');
    await login({ ...input, rememberMe: true });
    expect(cookieWrites.mock.calls.map((c) => c[0]).find((c) => c.startsWith('token='))).toContain('Max-Age=2592000');
  });

  it.each([
    ['an expired token', () => makeToken({ expInSeconds: 200 })],
    ['no token', () => ''],
  ])('refuses %s in the answer', async (_label, token) => {
    server.on('POST', '/api/login', { body: { user, token: token() } });
    await expect(login(input)).rejects.toThrow('Invalid or expired token received');
    expect(session()).toMatchObject({ isAuthenticated: false, error: 'Invalid or expired token received', isLoading: false });
    expect(storage.getToken()).toBeNull();
  });

  it("shows the server's error", async () => {
    server.on('POST', '/api/login', { status: 401, body: { error: 'Invalid username or password', code: 'INVALID_CREDENTIALS' } });
    await expect(login(input)).rejects.toMatchObject({ status: 401 });
    expect(session().error).toBe('Invalid username or password');
    expect(redirects).toBe(0);
  });

  it('falls back to "Login failed" when the server gives no reason', async () => {
    server.on('POST', '/api/login', { status: 502 });
    await expect(login(input)).rejects.toBeDefined();
    expect(session().error).toBe('Login failed');
  });

  it('runs the sign-in hooks with the user', async () => {
    server.on('POST', '/api/login', { body: { user, token: makeToken() } });
    const seen: string[] = [];
    const off = onUserLogin((u) => void seen.push(u.username));
    const offFailing = onUserLogin(() => {
      throw new Error('hook broke');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await login(input);
    await vi.waitFor(() => expect(seen).toEqual(['ada']));
    expect(session().isAuthenticated).toBe(true);
    off();
    offFailing();
  });
});

describe('startGuestSession', () => {
  it('starts a guest session and stores the token and guestId', async () => {
    const token = makeToken({ isGuest: true, sub: GUEST_ID });
    server.on('POST', '/api/guest', {
      status: 201,
      body: { user: { _id: GUEST_ID, role: 'guest', isGuest: true }, token, guestId: GUEST_ID },
    });
    await startGuestSession();
    expect(session()).toMatchObject({ isGuest: true, isAuthenticated: false, userType: 'guest', token, guestId: GUEST_ID });
    expect(storage.getToken()).toBe(token);
    expect(storage.getGuestId()).toBe(GUEST_ID);
    expect(storage.getUserType()).toBe('guest');
    expect(document.cookie).toContain(`guestId=${GUEST_ID}`);
  });

  it('sets the token and guestId cookies for a day, on path / with SameSite lax', async () => {
    const token = makeToken({ isGuest: true, sub: GUEST_ID });
    server.on('POST', '/api/guest', {
      status: 201,
      body: { user: { _id: GUEST_ID, role: 'guest', isGuest: true }, token, guestId: GUEST_ID },
    });
    const cookieWrites = vi.spyOn(document, 'cookie', 'set');
    await startGuestSession();
    const written = cookieWrites.mock.calls.map((c) => c[0]);
    expect(written.find((c) => c.startsWith('token='))).toBe(`token=${token}; Path=/; Max-Age=86400; SameSite=lax`);
    expect(written.find((c) => c.startsWith('guestId='))).toBe(`guestId=${GUEST_ID}; Path=/; Max-Age=86400; SameSite=lax`);
  });

  it('reports a failure', async () => {
    server.on('POST', '/api/guest', { status: 429, body: { error: 'Too many requests', code: 'RATE_LIMITED' } });
    await expect(startGuestSession()).rejects.toBeDefined();
    expect(session()).toMatchObject({ isGuest: false, error: 'Too many requests', isLoading: false });
  });
});

describe('register', () => {
  const input = {
    username: 'ada',
    email: 'ada@example.com',
    password: 'long enough pw',
    turnstileToken: 'sandbox-pass',
    referralCode: 'FRIEND1',
  };

  it('stores the token, removes the guestId and signs the new user in', async () => {
    const token = makeToken();
    storage.setGuestId(GUEST_ID);
    server.on('POST', '/api/register', { status: 201, body: { user, token } });
    const seen: string[] = [];
    const off = onUserLogin((u) => void seen.push(u._id));
    await register(input);
    expect(server.requests[0]?.body).toEqual({ ...input, guestId: GUEST_ID });
    expect(storage.getToken()).toBe(token);
    expect(storage.getGuestId()).toBeNull();
    expect(session()).toMatchObject({ isAuthenticated: true, isGuest: false, guestId: null, userId: user._id });
    expect(cachedUser()).toEqual(user);
    await vi.waitFor(() => expect(seen).toEqual([user._id]));
    off();
  });

  it("shows the server's error, else Registration failed", async () => {
    server.on('POST', '/api/register', { status: 409, body: { error: 'That username is taken', code: 'USERNAME_TAKEN' } });
    await expect(register(input)).rejects.toBeDefined();
    expect(session().error).toBe('That username is taken');
    server.on('POST', '/api/register', { status: 500 });
    await expect(register(input)).rejects.toBeDefined();
    expect(session().error).toBe('Registration failed');
  });
});

describe('logout', () => {
  it('clears all of local storage, the colour theme too, and the page follows the device again (docs/product.md#states)', async () => {
    storage.setToken(makeToken());
    localStorage.setItem('theme', 'light');
    document.documentElement.dataset.theme = 'light';
    server.on('POST', '/api/logout', { body: { message: 'Logout successful' } });

    await expect(logout()).resolves.toBe(true);

    expect(storage.getToken()).toBeNull();
    expect(localStorage.length).toBe(0);
    expect(document.documentElement.dataset.theme).toBe('system');
  });

  it('clears all local storage, the user state and every cached answer once the server confirms', async () => {
    const token = makeToken();
    storage.setToken(token);
    localStorage.setItem(STORAGE_KEYS.rewardClaims, '{}');
    useSessionStore.setState({ isAuthenticated: true, token, userId: user._id });
    queryClient.setQueryData(sessionKeys.user, user);
    queryClient.setQueryData(sessionKeys.credits(user._id), 12.5);
    server.on('POST', '/api/logout', { body: { message: 'Logout successful' } });
    server.on('GET', '/api/things', { body: {} });

    await expect(logout()).resolves.toBe(true);

    expect(hits('/api/logout')[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(localStorage.length).toBe(0);
    expect(session()).toMatchObject({ isAuthenticated: false, token: null, userId: null });
    expect(cachedUser()).toBeNull();
    expect(cachedCredits(user._id)).toBeUndefined();
    await api.get('/api/things');
    expect(hits('/api/things')[0]?.headers.authorization).toBeUndefined();
  });

  it('only logs a failure and keeps the session', async () => {
    const token = makeToken();
    storage.setToken(token);
    useSessionStore.setState({ isAuthenticated: true, token, userId: user._id });
    queryClient.setQueryData(sessionKeys.user, user);
    server.on('POST', '/api/logout', { status: 503, body: { error: 'Unavailable', code: 'UNAVAILABLE' } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(logout()).resolves.toBe(false);
    expect(logged).toHaveBeenCalled();
    expect(session()).toMatchObject({ isAuthenticated: true, token });
    expect(cachedUser()).toEqual(user);
    expect(storage.getToken()).toBe(token);
  });
});

describe('clearSession', () => {
  it('resets the session and removes the session keys but not other features’ data', () => {
    storage.setToken(makeToken());
    storage.setGuestId(GUEST_ID);
    storage.setUserRole('user');
    localStorage.setItem(STORAGE_KEYS.rewardClaims, '{}');
    useSessionStore.setState({ isAuthenticated: true, userId: user._id });
    session().clearSession();
    expect(session()).toMatchObject({
      isAuthenticated: false,
      isGuest: false,
      userId: null,
      token: null,
      guestId: null,
      sessionChecked: true,
    });
    expect(storage.getToken()).toBeNull();
    expect(storage.getGuestId()).toBeNull();
    expect(storage.getUserRole()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.rewardClaims)).toBe('{}');
  });
});

describe('token renewal', () => {
  it('never refreshes a guest token, even without a stored guestId: the session is cleared', async () => {
    storage.setToken(makeToken({ isGuest: true, expInSeconds: 100 }));
    await checkSession();
    expect(server.requests).toHaveLength(0);
    expect(session()).toMatchObject({ isGuest: false, token: null, sessionChecked: true, error: 'Token refresh failed' });
  });

  it('a failed refresh removes the stored token and resets the user (docs/product.md#states)', () => {
    storage.setToken(makeToken());
    useSessionStore.setState({ isAuthenticated: true, token: storage.getToken(), userId: user._id });
    session().refreshFailed('No token received');
    expect(storage.getToken()).toBeNull();
    expect(session()).toMatchObject({ isAuthenticated: false, userId: null, token: null, error: 'No token received' });
  });

  it("mirrors the client's own refresh before a request", async () => {
    const fresh = makeToken({ expInSeconds: 7200 });
    storage.setToken(makeToken({ expInSeconds: 10 }));
    server.on('POST', '/api/refresh-token', { body: { token: fresh } });
    server.on('GET', '/api/things', { body: {} });
    await api.get('/api/things');
    expect(session().token).toBe(fresh);
  });
});

describe('when the client cannot renew the session', () => {
  it('drops the token and the user, and sends the visitor to /login', async () => {
    storage.setToken(makeToken());
    useSessionStore.setState({ isAuthenticated: true, userType: 'user', token: storage.getToken(), userId: user._id });
    server.on('GET', '/api/things', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    server.on('POST', '/api/refresh-token', { status: 401, body: { error: 'Session has ended', code: 'SESSION_ENDED' } });
    await expect(api.get('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(session()).toMatchObject({ isAuthenticated: false, token: null, userId: null });
    expect(storage.getToken()).toBeNull();
    expect(redirects).toBe(1);
  });
});

describe('the user and the balance (query cache)', () => {
  it('reads the signed-in user', async () => {
    storage.setToken(makeToken());
    server.on('GET', '/api/auth/me', { body: { user } });
    await expect(queryClient.fetchQuery(sessionUserQueryOptions)).resolves.toEqual(user);
    expect(cachedUser()).toEqual(user);
  });

  it('on a failed user fetch at start-up removes the token and clears the session', async () => {
    storage.setToken(makeToken());
    server.on('GET', '/api/auth/me', { status: 403, body: { error: 'Account disabled', code: 'FORBIDDEN' } });
    await checkSession();
    expect(storage.getToken()).toBeNull();
    expect(session()).toMatchObject({ isAuthenticated: false, token: null, guestId: null, error: 'User fetch failed' });
  });

  it("loads the signed-in user's balance", async () => {
    storage.setToken(makeToken());
    server.on('GET', `/api/users/${user._id}/credits`, { body: { credits: 40.25 } });
    await expect(queryClient.fetchQuery(creditsQueryOptions(user._id))).resolves.toBe(40.25);
    expect(cachedCredits(user._id)).toBe(40.25);
  });

  it('never asks for a balance without a signed-in user', async () => {
    expect(hook(() => useCredits(null)).fetchStatus).toBe('idle');
    // Nothing is being fetched, so no request is on its way (a query only asks the server through a fetch it counts).
    expect(queryClient.isFetching()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

describe('completeOnboarding', () => {
  it('marks onboarding completed and keeps the updated user in the cache', async () => {
    storage.setToken(makeToken());
    queryClient.setQueryData(sessionKeys.user, user);
    server.on('PUT', '/api/onboarding', (r) => ({
      body: { user: { ...user, onboardingCompleted: (r.body as { completed: boolean }).completed } },
    }));
    await hook(useCompleteOnboarding).mutateAsync(true);
    expect(server.requests[0]?.body).toEqual({ completed: true });
    expect((cachedUser() as User).onboardingCompleted).toBe(true);
  });

  it('fails without changing the cached user', async () => {
    storage.setToken(makeToken());
    queryClient.setQueryData(sessionKeys.user, user);
    server.on('PUT', '/api/onboarding', { status: 500 });
    await expect(hook(useCompleteOnboarding).mutateAsync(true)).rejects.toBeDefined();
    expect((cachedUser() as User).onboardingCompleted).toBe(false);
  });
});
