import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#shared/routes.js';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';
import { ensureWebBuild, WEB_DIST } from '../web-build.js';

/** The app in the page: the body the build wrote (the head and the loading line are in the visitor's language, decision 0331). */
const appScripts = (html: string) => [...html.matchAll(/<script type="module"[^>]*><\/script>/g)].map((m) => m[0]);

/** Every route of docs/product.md#routes, with sub-paths for the `/*` ones and the query strings pages read. */
const APP_ROUTES = [
  ...Object.values(paths),
  '/status/api',
  '/privacy/cookies',
  '/terms/2024/archive',
  '/help/payment-stuck-in-confirming',
  '/dashboard/settings',
  '/dashboard/payments',
  '/dashboard/receipts/00000000-0000-4000-8000-000000000000',
  '/jobs/',
  '/payment/complete?id=abc123',
  '/payment/process?address=T9yD14&amount=10&currency=usdttrc20&id=1',
  '/discord-callback?code=abc&state=xyz',
  '/telegram-callback?id=1&hash=abc',
  '/verify-email?token=abc',
  '/reset-password?token=abc',
];

const UNKNOWN_ROUTES = ['/no-such-page', '/jobs/extra', '/login/extra', '/patch-notes/2024', '/statusx', '/dashboards', '/payment'];

describe.each(enginesFor('database'))('single-page app history fallback on %s', (engine) => {
  let t: TestApp;
  let indexHtml: string;
  beforeAll(async () => {
    ensureWebBuild();
    indexHtml = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    t = await startTestApp(engine);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  it('covers every documented route, and the pages the mails link to', () => {
    // 19 routes of docs/product.md#routes (the help centre, the notifications page and /advertise
    // among them), and 5 that mails link to (decision 0130).
    expect(Object.values(paths)).toHaveLength(24);
    expect(Object.values(paths)).toEqual(expect.arrayContaining(['/help', '/notifications', '/advertise']));
    expect(Object.values(paths)).toEqual(
      expect.arrayContaining(['/verify-email', '/forgot-password', '/reset-password', '/confirm-email', '/unsubscribe']),
    );
  });

  it.each(APP_ROUTES)('answers %s with 200 and the app', async (route) => {
    const res = await fetch(`${t.url}${route}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    // Revalidated every time, so a new deploy is picked up at once.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(appScripts(html)).toEqual(appScripts(indexHtml));
    expect(appScripts(html)).not.toEqual([]);
    expect(html).toContain('<div id="root">');
  });

  it('allows every inline script of the page, the theme script, by its hash and nothing else inline', async () => {
    const res = await fetch(`${t.url}/`);
    const html = await res.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    // The theme script reads the choice before the first paint (decision 0240).
    expect(inline).toHaveLength(1);
    expect(inline[0]).toContain("localStorage.getItem('theme')");
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')![1]!.split(' ');
    const hash = `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
    expect(scriptSrc).toContain(hash);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  it.each(UNKNOWN_ROUTES)('answers the unknown path %s with 404 and the app (which shows its 404 page)', async (route) => {
    const res = await fetch(`${t.url}${route}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(appScripts(html)).toEqual(appScripts(indexHtml));
    expect(html).toContain('<title>Page not found · Olympus</title>');
  });

  it('serves hashed assets as long-lived files with their real type', async () => {
    const script = readdirSync(path.join(WEB_DIST, 'assets')).find((f) => f.endsWith('.js'));
    expect(script).toBeDefined();
    const res = await fetch(`${t.url}/assets/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toContain('immutable');
    await res.arrayBuffer();
  });

  it('compresses scripts for browsers that accept it', async () => {
    const script = readdirSync(path.join(WEB_DIST, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => ({ f, size: readFileSync(path.join(WEB_DIST, 'assets', f)).length }))
      .sort((a, b) => b.size - a.size)[0]!.f;
    const res = await fetch(`${t.url}/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // Read it all: an unread response keeps its connection busy, and a busy connection holds up shutdown.
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('answers a missing asset with a 404 that is not the page (a browser would run HTML as a script)', async () => {
    const res = await fetch(`${t.url}/assets/missing-0000.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
  });

  it('never answers an API path with the page', async () => {
    const res = await fetch(`${t.url}/api/jobs`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers a POST to a page path with a JSON 404, not the page', async () => {
    const res = await fetch(`${t.url}/jobs`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
