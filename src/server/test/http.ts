import type { TestApp } from './test-app.js';

export interface JsonResponse {
  status: number;
  headers: Headers;
  // Tests read whatever the API answered; each assertion states the shape it expects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One API call over real HTTP, answering status, headers and parsed JSON. */
export async function call(
  t: TestApp,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let json: unknown = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, headers: res.headers, json };
}

let counter = 0;
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

export const TEST_PASSWORD = 'a long passphrase 42';

/** Registers a fresh account through the API. */
export async function registerUser(t: TestApp, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const username = (overrides.username as string | undefined) ?? uniqueName();
  const res = await call(t, 'POST', '/api/register', {
    body: { username, email: `${username}@example.com`, password: TEST_PASSWORD, turnstileToken: 'ok', ...overrides },
    headers,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.json)}`);
  return { username, token: res.json.token as string, userId: res.json.user._id as string, user: res.json.user };
}

export async function startGuest(t: TestApp) {
  const res = await call(t, 'POST', '/api/guest');
  if (res.status !== 201) throw new Error(`guest failed: ${res.status}`);
  return { guestId: res.json.guestId as string, token: res.json.token as string };
}

/** The browser's `token` cookie while it is this guest: sent with login and register, it proves the guestId. */
export function guestCookie(guest: { token: string }) {
  return { cookie: `token=${encodeURIComponent(guest.token)}` };
}

/** Headers a guest sends: its token and the matching Guest-ID. */
export function guestHeaders(guest: { guestId: string }) {
  return { 'guest-id': guest.guestId };
}
