import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { InvalidationBus } from '#server/db/invalidation.js';
import { call, registerUser } from '../http.js';
import { createTestDatabase, enginesFor, type TestApp, type TestDatabase } from '../test-app.js';
import { SESSION_CACHE_MS } from '#server/modules/auth/sessions.service.js';
import { USER_CACHE_MS } from '#server/modules/users/user-read-cache.js';

/**
 * A loopback TCP proxy to the database that can drop every connection and refuse new ones, or freeze:
 * keep every connection open and pass nothing.
 */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  let listening = false;
  let frozen = false;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (listening) return resolve();
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        // Bytes pass unless frozen; frozen, they vanish with every socket left open (a silent partition).
        client.on('data', (chunk) => {
          if (!frozen) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!frozen) client.write(chunk);
        });
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        listening = true;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      listening = false;
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: listen,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
  };
}

/**
 * The database going away mid-flight (docs/architecture.md#testing, database outage): requests answer 503 UNAVAILABLE with
 * Retry-After, never a 500, and the app recovers by itself. Drizzle wraps driver errors, so the
 * connection error is found on the error's cause.
 */
describe.each(enginesFor('database'))('requests while the database is unreachable on %s', (engine) => {
  let backing: TestDatabase;
  let database: Database;
  let app: App;
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    backing = await createTestDatabase(engine);
    proxy = await startProxy(new URL(backing.database.connectionString));
    const url = new URL(backing.database.connectionString);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    // One connection: the embedded database serves one session at a time.
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused', poolSize: 1 });
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: 'memory://',
      RATE_LIMITS: '0',
    });
    app = await buildApp({ config, database, isMigrated: () => true });
    const listening = await app.listen({ port: 0, host: '127.0.0.1' });
    t = { app, config, database, url: listening, close: async () => {} };
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await app?.close();
    await database?.close().catch(() => {});
    await backing?.dispose();
  });

  it('answers 503 with Retry-After while the connection is gone, and 200 again once it is back', async () => {
    const user = await registerUser(t);
    expect((await call(t, 'GET', '/api/auth/me', { token: user.token })).status).toBe(200);

    await proxy.cut();
    // A known session is answered from the cache until the instance notices its invalidation listener
    // is gone (docs/decisions/0170: at once for a closed connection, within about a second for a silent
    // one); from then on every cache starts over, and each of these calls needs the database. Waited for
    // as the first call no longer answered from the cache, within that second and a cache's lifetime.
    await expect
      .poll(async () => (await call(t, 'GET', '/api/auth/me', { token: user.token })).status, {
        timeout: 1000 + Math.max(SESSION_CACHE_MS, USER_CACHE_MS),
        interval: 50,
      })
      .not.toBe(200);
    for (const path of ['/api/auth/me', '/api/credits/history', '/api/payments/mine']) {
      const res = await call(t, 'GET', path, { token: user.token });
      expect(res.status, path).toBe(503);
      expect(res.json).toEqual({ error: 'Service temporarily unavailable', code: 'UNAVAILABLE' });
      expect(res.headers.get('retry-after')).toBe('5');
    }
    expect((await call(t, 'GET', '/readyz')).status).toBe(503);

    await proxy.restore();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await call(t, 'GET', '/api/auth/me', { token: user.token })).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await call(t, 'GET', '/readyz')).status).toBe(200);
  });

  it('an invalidation listener whose connection goes silent (no FIN, no error) counts as lost within about a second', async () => {
    const listenerUrl = new URL(backing.database.connectionString);
    listenerUrl.hostname = '127.0.0.1';
    listenerUrl.port = String(proxy.port);
    const bus = new InvalidationBus({ session: { connectionString: listenerUrl.toString() } });
    await bus.start();
    try {
      expect(bus.live).toBe(true);
      let resets = 0;
      bus.onReset(() => resets++);
      proxy.freeze();
      const frozenAt = Date.now();
      while (bus.live && Date.now() - frozenAt < 10_000) await new Promise((r) => setTimeout(r, 25));
      expect(bus.live).toBe(false);
      // Caches were told to start over, so nothing kept while listening outlives the silence.
      expect(resets).toBeGreaterThanOrEqual(1);
      expect(Date.now() - frozenAt).toBeLessThan(2000);
    } finally {
      // Bytes were dropped: end every connection through the proxy, so nothing is left half-spoken.
      proxy.thaw();
      await proxy.cut();
      await proxy.restore();
      await bus.stop();
    }
  });
});
