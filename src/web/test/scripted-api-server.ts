/// <reference types="node" />
/**
 * Test helper: a real HTTP server on a loopback port whose answers each test scripts, so the browser
 * code under test goes through real fetch, real headers and real timing. Not part of the app bundle.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, without the `?` ('' when none). */
  query: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  /** Waits this long before answering (for timeouts and ordering). */
  delayMs?: number;
}

export type Route = (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;

export interface ScriptedApiServer {
  url: string;
  requests: RecordedRequest[];
  /** Answers `METHOD /path` (path without query); unknown routes answer 404. */
  on(method: string, path: string, route: Route | ScriptedAnswer): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedApiServer(): Promise<ScriptedApiServer> {
  const routes = new Map<string, Route>();
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path,
          query: (req.url ?? '').split('?')[1] ?? '',
          headers: req.headers,
          body: text ? (JSON.parse(text) as unknown) : undefined,
          at: Date.now(),
        };
        requests.push(recorded);
        const route = routes.get(`${recorded.method} ${path}`);
        const answer: ScriptedAnswer = route ? await route(recorded) : { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
        if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
        if (res.destroyed) return;
        res.statusCode = answer.status ?? 200;
        if (answer.body === undefined) {
          res.end();
        } else {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify(answer.body));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(method, path, route) {
      routes.set(`${method} ${path}`, typeof route === 'function' ? route : () => route);
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function base64Url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An unsigned token with the claims the browser reads (the browser never verifies signatures). */
export function makeToken(claims: { expInSeconds?: number; lifetimeSeconds?: number; isGuest?: boolean; sub?: string } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (claims.expInSeconds ?? 3600);
  const payload = {
    sub: claims.sub ?? 'user-1',
    sid: 'session-1',
    iat: exp - (claims.lifetimeSeconds ?? 86_400),
    exp,
    isGuest: claims.isGuest ?? false,
    role: claims.isGuest ? 'guest' : 'user',
  };
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.signature`;
}

/**
 * The usual set-up for a component test against the scripted API: one server for the file, a clean
 * slate before each test (no stored data, a signed-in token unless `signedIn: false`, the API client
 * pointed at the server), and everything unmounted and restored after. Answers the file's server.
 */
export function setupScriptedApi(options: { signedIn?: boolean } = {}): ScriptedApiServer {
  let started: ScriptedApiServer | null = null;
  const current = () => {
    if (!started) throw new Error('the scripted API server starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    started = await startScriptedApiServer();
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    current().reset();
    localStorage.clear();
    if (options.signedIn !== false) storage.setToken(makeToken());
    configureApiClient({ baseUrl: current().url, redirectToLogin: () => undefined });
  });
  afterEach(() => {
    act(() => {
      toast.remove();
    });
    cleanup();
    configureApiClient(null);
    vi.restoreAllMocks();
  });
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    on: (method, path, route) => current().on(method, path, route),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}
