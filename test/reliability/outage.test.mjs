// Database outage: the app reaches PostgreSQL through a TCP proxy started here, and the proxy is cut
// for 10 s under load (the shared PostgreSQL server itself is never stopped). /readyz must report it,
// requests must fail fast with 503 (no hang, no 500, no stack), and service must come back by itself.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { after, test } from 'node:test';
import { api, createDatabase, finishedDeposit, flag, freePort, register, secs, sleep, startServer } from './lib.mjs';

const OUTAGE_MS = flag('outage-seconds', 'RELIABILITY_OUTAGE_SECONDS', 10) * 1000;
/** A request slower than this during the outage counts as a hang. */
const HANG_MS = 8000;

/** A TCP proxy on a loopback port in front of PostgreSQL that can be cut (every connection dropped) and restored. */
async function startProxy(target) {
  const port = await freePort();
  const sockets = new Set();
  let server = null;
  const listen = () =>
    new Promise((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    port,
    /** Stops accepting (new connections are refused) and drops every open connection. */
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: listen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

test(
  `a ${OUTAGE_MS / 1000} s database outage under load: 503s, /readyz reports it, service resumes by itself`,
  { timeout: 180_000 },
  async () => {
    const db = await createDatabase();
    cleanup.push(() => db.drop());
    const proxy = await startProxy(new URL(db.url));
    cleanup.push(() => proxy.close());
    const viaProxy = new URL(db.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const server = await startServer({
      databaseUrl: viaProxy.toString(),
      port: await freePort(),
      jwtSecret: randomBytes(32).toString('hex'),
    });
    cleanup.push(() => server.kill());

    const user = await register(server.url, 'outage');
    const { payment } = await finishedDeposit(server.url, user);
    const calls = [
      () => api(server.url, 'GET', '/api/auth/me', { token: user.token, timeoutMs: 20_000 }),
      () => api(server.url, 'GET', `/api/payments/${payment._id}/status`, { token: user.token, timeoutMs: 20_000 }),
      () => api(server.url, 'GET', '/api/credits/history', { token: user.token, timeoutMs: 20_000 }),
    ];

    /** Load: 6 clients calling in a loop; each answer is stamped with the phase it started in. */
    let phase = 'before';
    let running = true;
    const answers = [];
    const client = async (i) => {
      let n = i;
      while (running) {
        const started = phase;
        const res = await calls[n++ % calls.length]().catch((err) => ({ status: 0, text: String(err), ms: HANG_MS + 1 }));
        // A call that straddles the cut belongs to the outage.
        answers.push({
          phase: started === 'before' && phase !== 'before' ? 'outage' : started,
          status: res.status,
          ms: res.ms,
          text: res.text.slice(0, 300),
        });
        await sleep(20);
      }
    };
    const readiness = [];
    const prober = async () => {
      while (running) {
        const started = phase;
        const res = await api(server.url, 'GET', '/readyz', { timeoutMs: 10_000 }).catch(() => ({ status: 0, ms: 10_000 }));
        readiness.push({ phase: started, status: res.status, ms: res.ms });
        await sleep(250);
      }
    };
    const load = Promise.all([...Array.from({ length: 6 }, (_, i) => client(i)), prober()]);

    await sleep(2000);
    phase = 'outage';
    const cutAt = Date.now();
    await proxy.cut();
    await sleep(OUTAGE_MS);
    phase = 'recovering';
    await proxy.restore();
    const restoredAt = Date.now();
    // Service is back when a full round of calls and /readyz succeed.
    let recoveredAfter = null;
    while (Date.now() - restoredAt < 30_000) {
      const round = await Promise.all([
        ...calls.map((c) => c().catch(() => ({ status: 0 }))),
        api(server.url, 'GET', '/readyz').catch(() => ({ status: 0 })),
      ]);
      if (round.every((r) => r.status === 200)) {
        recoveredAfter = Date.now() - restoredAt;
        break;
      }
      await sleep(250);
    }
    phase = 'after';
    await sleep(2000);
    running = false;
    await load;

    const during = answers.filter((a) => a.phase === 'outage');
    const summary = (list) =>
      Object.entries(list.reduce((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {}))
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
    console.log(`# before: ${summary(answers.filter((a) => a.phase === 'before'))}`);
    console.log(
      `# during the ${secs(OUTAGE_MS)} outage: ${summary(during)}; slowest ${Math.max(...during.map((a) => a.ms))} ms; /readyz ${summary(readiness.filter((r) => r.phase === 'outage'))}`,
    );
    console.log(
      `# recovered ${recoveredAfter === null ? 'never' : `${secs(recoveredAfter)}`} after the database came back; after: ${summary(answers.filter((a) => a.phase === 'after'))}`,
    );

    assert.ok(
      answers.filter((a) => a.phase === 'before').every((a) => a.status === 200),
      'all good before the outage',
    );
    assert.ok(during.length > 0, 'requests were made during the outage');
    const wrong = during.filter((a) => a.status !== 503 && a.status !== 200);
    assert.deepEqual(
      wrong.map((a) => `${a.status} ${a.text}`),
      [],
      'during the outage requests answer 503 (or 200 when they needed no database)',
    );
    assert.ok(
      during.some((a) => a.status === 503),
      'the outage was visible as 503',
    );
    const hung = during.filter((a) => a.ms > HANG_MS);
    assert.deepEqual(
      hung.map((a) => `${a.status} after ${a.ms} ms`),
      [],
      `no request took longer than ${HANG_MS} ms`,
    );
    for (const a of during) assert.doesNotMatch(a.text, /\n\s+at\s|node_modules|\.js:\d+:\d+/, 'no stack trace in an answer');
    for (const a of during.filter((x) => x.status === 503)) assert.match(a.text, /"code":"UNAVAILABLE"/);
    assert.ok(
      readiness.some((r) => r.phase === 'outage' && r.status === 503),
      '/readyz reported the outage',
    );
    assert.ok(
      readiness.filter((r) => r.phase === 'outage').every((r) => r.status === 503 || r.status === 200),
      '/readyz answered 503, never an error',
    );
    assert.notEqual(recoveredAfter, null, 'service resumed by itself within 30 s of the database returning');
    assert.ok(
      answers.filter((a) => a.phase === 'after').every((a) => a.status === 200),
      'all good after recovery',
    );
    assert.ok(Date.now() - cutAt < 120_000);
    await server.stop();
  },
);
