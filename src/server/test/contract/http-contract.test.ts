import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';

/** The parts of every error answer docs/product.md#api-conventions promises: a message, a code, no internals. */
function expectCleanError(body: Record<string, unknown>): void {
  expect(typeof body.error).toBe('string');
  expect((body.error as string).length).toBeGreaterThan(0);
  expect(body.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
  expect(body).not.toHaveProperty('stack');
  expect(body).not.toHaveProperty('statusCode');
  // A stack trace looks like "    at fn (/path/file.ts:1:2)"; none may leak into any field.
  expect(JSON.stringify(body)).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/src\//);
}

/** A raw request with a body sent in chunks and no Content-Length, which fetch cannot do. */
function chunkedPost(url: string, chunks: string[]): Promise<{ status: number; body: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe.each(enginesFor('database'))('HTTP contract of the foundation on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('security headers', () => {
    it('sends a strict Content-Security-Policy on API answers', async () => {
      const res = await fetch(`${t.url}/api/csrf-token`);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('script-src')).toContain("'self'");
      expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
      expect(directives.get('script-src')).not.toContain("'unsafe-eval'");
      expect(directives.get('script-src')).not.toContain('*');
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('base-uri')).toEqual(["'self'"]);
    });

    it('sends the usual hardening headers and hides the framework', async () => {
      const res = await fetch(`${t.url}/healthz`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(res.headers.get('x-powered-by')).toBeNull();
    });

    it('sends the same headers on error answers', async () => {
      const res = await fetch(`${t.url}/api/no-such-call`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });

  it('answers the bare /api and /sandbox prefixes with a JSON 404, not the page', async () => {
    for (const path of ['/api', '/sandbox']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  describe('request ids', () => {
    it('echoes a well-formed x-request-id', async () => {
      const id = 'trace-1234abcd.ef_56';
      const res = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
    });

    it('generates a fresh id per request when none is sent', async () => {
      const [a, b] = await Promise.all([fetch(`${t.url}/healthz`), fetch(`${t.url}/healthz`)]);
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
      expect(a.headers.get('x-request-id')).toMatch(uuid);
      expect(b.headers.get('x-request-id')).toMatch(uuid);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    });

    it('replaces an id that could forge log lines with a generated one', async () => {
      const res = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'evil id" level=error' } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('puts the id on error answers too', async () => {
      const res = await fetch(`${t.url}/api/no-such-call`, { headers: { 'x-request-id': 'error-trace-0001' } });
      expect(res.headers.get('x-request-id')).toBe('error-trace-0001');
    });
  });

  describe('/metrics', () => {
    it('serves Prometheus text that counts requests by route pattern and status', async () => {
      await fetch(`${t.url}/healthz`);
      await fetch(`${t.url}/api/no-such-call`);
      const res = await fetch(`${t.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(text).toContain('# TYPE http_requests_total counter');
      expect(text).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]\d*$/m);
      expect(text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]\d*$/m);
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(text).toContain('process_cpu_seconds_total');
      // Raw URLs never become labels (unbounded cardinality).
      expect(text).not.toContain('no-such-call');
    });
  });

  describe('/api/docs', () => {
    it('publishes an OpenAPI 3 document of the API', async () => {
      const res = await fetch(`${t.url}/api/docs`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = (await res.json()) as {
        openapi: string;
        info: { title: string };
        paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
      };
      expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(doc.info.title).toBeTruthy();
      for (const [route, method] of [
        ['/api/login', 'post'],
        ['/api/register', 'post'],
        ['/api/refresh-token', 'post'],
        ['/api/logout', 'post'],
        ['/api/auth/me', 'get'],
        ['/api/csrf-token', 'get'],
      ] as const) {
        expect(doc.paths[route], route).toHaveProperty(method);
      }
      // Calls carry their schemas, so the document says what to send and what comes back.
      expect(doc.paths['/api/login']!.post!.requestBody).toBeTruthy();
      expect(Object.keys(doc.paths['/api/login']!.post!.responses ?? {})).toContain('200');
      // Internal endpoints are not part of the public API document.
      expect(Object.keys(doc.paths)).not.toContain('/api/docs');
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox'))).toEqual([]);
    });
  });

  describe('error answers', () => {
    it('answers an unknown /api path with a 404 JSON error', async () => {
      for (const [method, route] of [
        ['GET', '/api/no-such-call'],
        ['POST', '/api/no-such-call'],
        ['DELETE', '/api/login'],
        ['GET', '/api/no-such-call.json'],
        ['GET', '/api/users/1/no-such-thing'],
      ] as const) {
        const res = await fetch(`${t.url}${route}`, { method });
        expect(res.status, `${method} ${route}`).toBe(404);
        expect(res.headers.get('content-type'), `${method} ${route}`).toMatch(/^application\/json/);
        expectCleanError((await res.json()) as Record<string, unknown>);
      }
    });

    it('answers malformed JSON with a 400, not a 500', async () => {
      const res = await fetch(`${t.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username": "ann", "password": ',
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, unknown>;
      expectCleanError(body);
      expect(body.error).toMatch(/json|malformed/i);
    });

    it('answers an empty JSON body with a 400', async () => {
      const res = await fetch(`${t.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expectCleanError((await res.json()) as Record<string, unknown>);
    });

    it('answers a body over 64 KiB on a signed-out route with a 413 BODY_TOO_LARGE', async () => {
      const body = JSON.stringify({ username: 'ann', password: 'x'.repeat(64 * 1024), turnstileToken: 'ok' });
      const res = await fetch(`${t.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(413);
      const json = (await res.json()) as Record<string, unknown>;
      expectCleanError(json);
      expect(json.code).toBe('BODY_TOO_LARGE');
      expect(json.error).toMatch(/too large/i);
    });

    it('answers a form body over its own 1 KiB limit (one-click unsubscribe, no session) with a 413', async () => {
      const res = await fetch(`${t.url}/api/mail/unsubscribe?token=whatever`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `List-Unsubscribe=One-Click&pad=${'x'.repeat(2048)}`,
      });
      expect(res.status).toBe(413);
      const json = (await res.json()) as Record<string, unknown>;
      expectCleanError(json);
      expect(json.code).toBe('BODY_TOO_LARGE');
    });

    it('refuses an oversized body sent without Content-Length as well', async () => {
      const chunk = 'x'.repeat(16 * 1024);
      const res = await chunkedPost(`${t.url}/api/login`, ['{"username":"', chunk, chunk, chunk, chunk, chunk, '"}']);
      expect(res.status).toBe(413);
      expect(res.contentType).toMatch(/^application\/json/);
      const json = JSON.parse(res.body) as Record<string, unknown>;
      expectCleanError(json);
      expect(json.code).toBe('BODY_TOO_LARGE');
    });

    it('answers a body that fails validation with a 400 naming the field', async () => {
      const res = await fetch(`${t.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ann', email: 'not-an-email', password: 'long enough pass', turnstileToken: 'ok' }),
      });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { error: string; code: string; details?: { fields?: Record<string, string> } };
      expectCleanError(json as unknown as Record<string, unknown>);
      expect(json.details?.fields).toHaveProperty('email');
    });

    it('answers a body of the wrong type (an array) with a 400', async () => {
      const res = await fetch(`${t.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[1,2,3]',
      });
      expect(res.status).toBe(400);
      expectCleanError((await res.json()) as Record<string, unknown>);
    });
  });
});
