/**
 * The one API client of the web app (docs/product.md#api).
 *
 *   import { api, ApiError } from '<...>/lib/api-client';
 *   const { credits } = await api.get<{ credits: number }>(`/api/users/${id}/credits`);
 *   await api.post<T>(path, body?, options?);  api.put<T>(path, body?, options?);
 *   await api.delete<T>(path, body?, options?);  api.get<T>(path, options?)  (a GET has no body)
 *
 * - Resolves with the parsed JSON answer (undefined for an empty one).
 * - Rejects with ApiError: `status` (0 when there was no answer), `message` (the server's `error` field),
 *   `code` (the server's code, or NETWORK_ERROR / TIMEOUT) and `details` (e.g. `{ fields: { name: message } }`).
 * - Handles auth for you: cookies, Guest-ID and Bearer headers, token freshness, one retry after a 401,
 *   and the full-page redirect to /login when the session cannot be renewed. It never shows toasts or
 *   navigates otherwise: callers decide what the user sees.
 */
import { i18n } from '@lingui/core';
import { REQUEST_TIMEOUT_MS } from '#shared/constants';
import { ClientErrorCode } from '#shared/error-codes';
import { paths } from '#shared/routes';
import { isTokenExpired, readTokenClaims } from '#shared/token';
import { detailedErrorText, errorMessageFor, serverMessageText, validationErrorText } from './error-messages';
import { storage } from './storage';

export class ApiError extends Error {
  readonly status: number;
  /** One of ErrorCode (the server's, src/shared/error-codes.ts) or ClientErrorCode (no usable answer). */
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, message: string, code: string = ClientErrorCode.REQUEST_FAILED, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** True when `message` is the server's own `error` text (not the client's words for a missing answer). */
  get fromServer(): boolean {
    return this.status > 0 && this.code !== ClientErrorCode.HTTP_ERROR;
  }

  /** Field-level messages from a validation error (`details.fields`), keyed by field name. */
  get fieldErrors(): Record<string, string> {
    const fields = (this.details as { fields?: unknown } | null | undefined)?.fields;
    if (!fields || typeof fields !== 'object') return {};
    return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
}

/**
 * The one way the web words a failed call: the words for its code in the page's language
 * (./error-messages.ts; worded from the answer's details where its message carries values), else the server's
 * fixed `error` text translated (./server-messages.ts), else that field as it is; the client's own message when there was no
 * answer (timeout, offline), otherwise `fallback` (a non-JSON answer, or not an ApiError).
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError) || !(err.fromServer || err.status === 0)) return fallback;
  const detailed = detailedErrorText(err.code, err.details, err.message);
  if (detailed !== null) return detailed;
  const known = errorMessageFor(err.code);
  // Without an active language (a unit test that never loads one) the server's English stands.
  if (known && i18n.locale) return i18n._(known);
  // A fixed English message of the server (./server-messages.ts, once a page that loads it has).
  return (err.fromServer ? serverMessageText(err.message) : null) ?? validationErrorText(err.code, err.message);
}

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Defaults to REQUEST_TIMEOUT_MS (30 s). */
  timeoutMs?: number;
  /** 'blob': resolve with the answer's bytes (a file download) instead of parsed JSON. */
  responseType?: 'json' | 'blob';
}

export const TIMEOUT_MESSAGE = 'The request timed out. Please check your connection and try again.';
export const NETWORK_MESSAGE = 'No response from server. Please check your connection.';

const REFRESH_PATH = '/api/refresh-token';
/** docs/product.md#api: these paths carry neither Guest-ID nor Authorization (the sign-in steps of decision 0140 neither). */
const NO_AUTH_PATHS = [
  '/api/login',
  '/api/register',
  '/api/csrf-token',
  '/api/login/2fa',
  '/api/login/passkey',
  '/api/login/passkey/options',
];
/** docs/product.md#roles: guest ticket calls never trigger a refresh. */
const GUEST_TICKETS_PREFIX = '/api/tickets/guest/';

interface ClientConfig {
  /** Origin of the API; the page's own origin when unset. */
  baseUrl: string | null;
  /** The mandated full-page redirect (docs/product.md#routes, Global). Replaceable so tests can observe it. */
  redirectToLogin: () => void;
}

const defaults: ClientConfig = {
  baseUrl: null,
  redirectToLogin: () => window.location.assign(paths.login),
};
let config: ClientConfig = { ...defaults };

type TokenListener = (token: string | null) => void;
const tokenListeners = new Set<TokenListener>();

/** For the app's wiring and tests: the API origin and how the login redirect happens. */
export function configureApiClient(next: Partial<ClientConfig> | null): void {
  config = next === null ? { ...defaults } : { ...config, ...next };
}

/** Called whenever the client renews the token or drops it after a failed renewal. */
export function onTokenChange(listener: TokenListener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function apiOrigin(): string {
  return new URL(config.baseUrl ?? window.location.origin).origin;
}

/** The path as the server will see it (resolved, so `/api/x/../login` is `/api/login`). */
function pathnameOf(path: string): string {
  return new URL(urlFor(path)).pathname;
}

/** The token and guestId go to the API only: never to another origin, even if a caller passes a full URL. */
function skipsAuthHeaders(path: string): boolean {
  const url = new URL(urlFor(path));
  return url.origin !== apiOrigin() || NO_AUTH_PATHS.includes(url.pathname);
}

/** Guests never refresh (docs/product.md#states): their token says so, and so does the stored user type. */
function isGuestSession(token: string | null): boolean {
  return readTokenClaims(token)?.isGuest === true || storage.getUserType() === 'guest';
}

function mayRefreshFor(path: string, token: string | null): boolean {
  const pathname = pathnameOf(path);
  return pathname !== REFRESH_PATH && !skipsAuthHeaders(path) && !pathname.includes(GUEST_TICKETS_PREFIX) && !isGuestSession(token);
}

function urlFor(path: string): string {
  return new URL(path, config.baseUrl ?? window.location.origin).toString();
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One HTTP exchange with the timeout; no auth logic. */
async function send(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  headers: Record<string, string>,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const init: RequestInit = {
      method,
      headers: { Accept: 'application/json', ...headers, ...options.headers },
      credentials: 'include',
      signal: controller.signal,
    };
    if (body instanceof Blob) {
      // A file upload: the body is the file's bytes (ticket attachments), read once here.
      init.body = new Uint8Array(await body.arrayBuffer());
      (init.headers as Record<string, string>)['Content-Type'] = body.type || 'application/octet-stream';
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    return await fetch(urlFor(path), init);
  } catch (err) {
    if (timedOut) throw new ApiError(0, TIMEOUT_MESSAGE, ClientErrorCode.TIMEOUT);
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, NETWORK_MESSAGE, ClientErrorCode.NETWORK_ERROR);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

async function toError(response: Response): Promise<ApiError> {
  const data = (await parseBody(response)) as
    { error?: unknown; code?: unknown; details?: unknown; error_description?: unknown } | string | undefined;
  if (data && typeof data === 'object') {
    const code = typeof data.code === 'string' ? data.code : ClientErrorCode.REQUEST_FAILED;
    if (typeof data.error === 'string') {
      return new ApiError(response.status, data.error, code, data.details);
    }
    // docs/product.md#errors: a server message may also come from `details` or `error_description`.
    if (typeof data.details === 'string') return new ApiError(response.status, data.details, code, data.details);
    if (typeof data.error_description === 'string') {
      return new ApiError(response.status, data.error_description, code, { error_description: data.error_description });
    }
  }
  return new ApiError(response.status, `Request failed with status ${response.status}`, ClientErrorCode.HTTP_ERROR);
}

let refreshInFlight: Promise<string> | null = null;

/**
 * Renews the stored token (POST /api/refresh-token with the current bearer token) and stores the new one.
 * Concurrent callers share one request. Rejects with "No token to refresh" or "No token received".
 */
export function refreshAccessToken(): Promise<string> {
  refreshInFlight ??= (async () => {
    const current = storage.getToken();
    if (!current) throw new Error('No token to refresh');
    const headers: Record<string, string> = { Authorization: `Bearer ${current}` };
    const response = await send('POST', REFRESH_PATH, undefined, {}, headers);
    if (!response.ok) throw await toError(response);
    const data = (await parseBody(response)) as { token?: unknown } | undefined;
    const token = data && typeof data === 'object' && typeof data.token === 'string' && data.token ? data.token : null;
    if (!token) throw new Error('No token received');
    storage.setToken(token);
    for (const listener of tokenListeners) listener(token);
    return token;
  })().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function authHeaders(path: string): Record<string, string> {
  if (skipsAuthHeaders(path)) return {};
  const headers: Record<string, string> = {};
  const guestId = storage.getGuestId();
  const token = storage.getToken();
  if (guestId) headers['Guest-ID'] = guestId;
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** The session cannot be renewed: drop the token and send the visitor to sign in again. */
function failAuthentication(): void {
  storage.removeToken();
  for (const listener of tokenListeners) listener(null);
  // Already on a sign-in page: a redirect would only reload it.
  const here = window.location.pathname;
  if (here !== paths.login && here !== paths.register) config.redirectToLogin();
}

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const token = storage.getToken();
  // docs/product.md#validation: freshness is checked before each request. A failed early refresh is not fatal:
  // the token may still be accepted, and a 401 below gets its own retry.
  if (token && mayRefreshFor(path, token) && isTokenExpired(token)) {
    await refreshAccessToken().catch(() => undefined);
  }

  let response = await send(method, path, body, options, authHeaders(path));

  if (response.status === 401 && mayRefreshFor(path, storage.getToken())) {
    let renewed: string | null = null;
    try {
      renewed = await refreshAccessToken();
    } catch {
      renewed = null;
    }
    if (!renewed) {
      const error = await toError(response);
      failAuthentication();
      throw error;
    }
    response = await send(method, path, body, options, authHeaders(path));
  }

  if (!response.ok) throw await toError(response);
  if (options.responseType === 'blob') return (await response.blob()) as T;
  return (await parseBody(response)) as T;
}

/**
 * Opens a long-lived GET (server-sent events) with the session's headers, renewing an expired token
 * first as every call does; answers the raw response for the caller to read. A refused session rejects
 * with the ApiError, without the sign-in redirect (the caller falls back to polling).
 */
export async function openStream(path: string, signal: AbortSignal): Promise<Response> {
  const token = storage.getToken();
  if (token && mayRefreshFor(path, token) && isTokenExpired(token)) {
    await refreshAccessToken().catch(() => undefined);
  }
  const response = await fetch(urlFor(path), {
    method: 'GET',
    headers: { Accept: 'text/event-stream', ...authHeaders(path) },
    signal,
    credentials: 'include',
  });
  if (!response.ok) throw await toError(response);
  return response;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('DELETE', path, body, options),
};
