// Two instances of the production build whose queries and jobs go through PgBouncer in transaction
// pooling, configured from deploy/pgbouncer/pgbouncer.ini.template (the file compose.yaml runs), while
// LISTEN and migrations go straight to PostgreSQL (DATABASE_DIRECT_URL; decision 0334). Under
// concurrent IPNs (each sent four times, to both instances): every payment credited once, and PostgreSQL
// never sees more connections than PgBouncer's pool plus the instances' direct ones. A session revoked on
// one instance is refused by the other (the invalidation heard over the direct connection), and the session
// limits the instances ask for hold on PgBouncer's server connections.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import {
  ROOT,
  api,
  createDatabase,
  finishedDeposit,
  flag,
  freePort,
  ledgerViolations,
  paymentViolations,
  pool,
  postIpn,
  register,
  startServer,
} from './lib.mjs';

const PAYMENTS = flag('pgbouncer-payments', 'RELIABILITY_PGBOUNCER_PAYMENTS', 40);
const POOL_SIZE = 4;
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

/** PgBouncer on a loopback port in front of the test PostgreSQL, from the deploy's own template. */
async function startPgBouncer(directUrl) {
  const target = new URL(directUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympus-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(target.username || 'postgres');
  // The test PostgreSQL trusts loopback; PgBouncer still wants the user in its auth file.
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const ini = readFileSync(path.join(ROOT, 'deploy/pgbouncer/pgbouncer.ini.template'), 'utf8')
    .replaceAll('@DB_HOST@', target.hostname)
    .replaceAll('@DB_PORT@', target.port || '5432')
    .replaceAll('@LISTEN_ADDR@', '127.0.0.1')
    .replaceAll('@LISTEN_PORT@', String(port))
    .replaceAll('@AUTH_TYPE@', 'trust')
    .replaceAll('@AUTH_FILE@', path.join(dir, 'userlist.txt'))
    .replaceAll('@POOL_SIZE@', String(POOL_SIZE))
    .replaceAll('@ADMIN_USER@', user)
    .replaceAll('@LOCK_TIMEOUT_MS@', '5000')
    .replaceAll('@STATEMENT_TIMEOUT_MS@', '30000');
  assert.doesNotMatch(ini, /@[A-Z_]+@/, 'every placeholder of the template filled in');
  const iniPath = path.join(dir, 'pgbouncer.ini');
  writeFileSync(iniPath, ini, { mode: 0o644 });
  // PgBouncer refuses to run as root; CI runs as root, so it switches to the postgres user there.
  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), iniPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = new URL(directUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  // Ready when it answers a query (bounded: a broken configuration fails here with PgBouncer's own words).
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 1000 });
    const ok = await client.connect().then(
      () => true,
      () => false,
    );
    if (ok) {
      await client.end();
      break;
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: url.toString(),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test(
  'two instances through PgBouncer: every credit once, PostgreSQL sees the pool, invalidation still heard',
  { timeout: 300_000 },
  async () => {
    assert.ok(PGBOUNCER, "PgBouncer is not installed: apt-get install pgbouncer (Debian's package; .ci/run installs it)");
    const db = await createDatabase('olympus_bouncer');
    cleanup.push(() => db.drop());
    const bouncer = await startPgBouncer(db.url);
    cleanup.push(() => bouncer.stop());
    const jwtSecret = randomBytes(32).toString('hex');
    const env = { DATABASE_DIRECT_URL: db.url };
    const a = await startServer({ databaseUrl: bouncer.url, env, port: await freePort(), jwtSecret, label: 'instance A' });
    cleanup.push(() => a.kill());
    const b = await startServer({ databaseUrl: bouncer.url, env, port: await freePort(), jwtSecret, label: 'instance B' });
    cleanup.push(() => b.kill());

    // The session limits reach PgBouncer's server connections (connect_query), not only direct ones.
    const through = new pg.Client({ connectionString: bouncer.url });
    await through.connect();
    const limits = await through.query(`SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock`);
    await through.end();
    assert.deepEqual(limits.rows[0], { statement: '30s', lock: '5s' });

    // How many connections PostgreSQL holds for this database, sampled while the load runs.
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const res = await db.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
          [db.name],
        );
        peak = Math.max(peak, res.rows[0].n);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const users = [];
    for (let i = 0; i < 6; i++) users.push(await register(i % 2 ? b.url : a.url, 'pooled'));
    const made = await pool(
      Array.from({ length: PAYMENTS }, (_, i) => i),
      6,
      (i) => finishedDeposit(i % 2 ? b.url : a.url, users[i % users.length]),
    );
    const deposits = made.map((r) => {
      if (!r.ok) throw r.error;
      return r.value;
    });
    const work = [];
    for (const d of deposits) for (let k = 0; k < 4; k++) work.push(() => postIpn(k % 2 ? b.url : a.url, d.ipn).then((r) => r.status));
    work.sort(() => Math.random() - 0.5);
    // 40 requests in flight against two pools of 10: far more than PgBouncer's pool of POOL_SIZE.
    const results = await pool(work, 40, (fn) => fn());
    sampling = false;
    await sampler;
    const failures = results.filter((r) => !r.ok || r.value !== 200).map((r) => (r.ok ? `IPN answered ${r.value}` : String(r.error)));
    assert.deepEqual(failures, [], 'every IPN answered 200');
    assert.deepEqual(
      await paymentViolations(
        db.pool,
        deposits.map((d) => ({ id: d.payment._id, creditsCents: d.creditsCents })),
      ),
      [],
    );
    assert.deepEqual(await ledgerViolations(db.pool), []);
    // PgBouncer's pool and its reserve, each instance's LISTEN connection, and the test's own pool of two.
    const ceiling = POOL_SIZE + 2 + 2 + 2;
    console.log(`# PostgreSQL connections for the two instances at the peak: ${peak} (ceiling ${ceiling}; without PgBouncer up to 22)`);
    assert.ok(peak <= ceiling, `PostgreSQL saw ${peak} connections, more than PgBouncer's pool allows (${ceiling})`);

    // Signed in on A, known to B; signed out on A: B refuses the token once it hears the invalidation.
    const person = await register(a.url, 'listen');
    for (let i = 0; i < 3; i++) assert.equal((await api(b.url, 'GET', '/api/auth/me', { token: person.token })).status, 200);
    assert.equal((await api(a.url, 'POST', '/api/logout', { token: person.token })).status, 200);
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (Date.now() < deadline) {
      status = (await api(b.url, 'GET', '/api/auth/me', { token: person.token })).status;
      if (status === 401) break;
    }
    assert.equal(status, 401, 'the other instance refuses a token revoked on the first');
    // The migrations ran once (over the direct connection, under the advisory lock) and left no session behind.
    const migrationLock = await db.pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`);
    assert.equal(migrationLock.rows[0].n, 0, 'no advisory lock left held by a pooled connection');
    await Promise.all([a.stop(), b.stop()]);
  },
);
