import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#shared/routes.js';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const WEB_DIST = path.join(ROOT, 'dist/web');

/**
 * The server serves the built app; without a build these tests would prove nothing, so they build it
 * (the same `vite build` as `npm run build:web`) instead of being skipped. `npm test` builds first.
 */
function ensureWebBuild(): void {
  if (existsSync(path.join(WEB_DIST, 'index.html'))) return;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build into dist/web,
  // where the browser tests and `npm start` would then pick it up.
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build'], {
    cwd: ROOT,
    stdio: 'ignore',
    timeout: 240_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

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
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toBe(indexHtml);
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
    expect(await res.text()).toBe(indexHtml);
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
