// `npm run bench -- --fleet [-- --instances=4] [-- --pool=20] [-- --connections=100] [-- --duration=15]`
//
// A fleet on one PostgreSQL database (decision 0334): the production build behind Caddy (Debian's
// package, round robin as deploy/Caddyfile), first as one instance straight on PostgreSQL, then as
// `--instances` instances whose queries go through PgBouncer in transaction pooling (the deploy's
// deploy/pgbouncer/pgbouncer.ini.template) and whose LISTEN goes straight to PostgreSQL. The traffic of the
// main bench's read paths: GET /api/auth/me over 3,000 sessions and payment status over 1,000 payments,
// round robin. Beside each figure: the ceiling, a bare node:http server behind the same Caddy, measured in
// the same pass, and how many connections PostgreSQL held at the peak.
//
// On a machine with few cores the instances, PgBouncer, Caddy, PostgreSQL and the load generator share
// them: the fleet's figure there says what pooling costs, not what more machines would gain.
import { createHmac, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createUser, ensureBuilt, freePort, ROOT, startBuiltServer } from '../scripts/built-app.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const INSTANCES = Number(opt('instances', 4));
const POOL = Number(opt('pool', 20));
const CONNECTIONS = Number(opt('connections', 100));
const DURATION = Number(opt('duration', args.includes('--quick') ? 3 : 15));
const SESSIONS = 3000;
const PAYMENTS = 1000;
const DB_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const CADDY = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));
/** The goal: a fleet through PgBouncer serves at least what one instance serves (it must not cost throughput). */
const GOAL_RATIO = 1;

function need(ok, message) {
  if (!ok) {
    console.error(`bench --fleet: ${message}`);
    process.exit(1);
  }
}
need(DB_URL, 'needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
need(PGBOUNCER, "needs PgBouncer: apt-get install pgbouncer (Debian's package)");
need(CADDY, "needs Caddy: apt-get install caddy (Debian's package)");
if (!(await ensureBuilt({ parts: ['server'] }))) process.exit(1);

const children = [];
function run(cmd, argv, label) {
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (c) => (log = (log + c).slice(-4000)));
  children.push(child);
  return { child, log: () => log, label };
}
async function until(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not come up in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startCaddy(upstreamPorts) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympus-fleet-caddy-'));
  const file = path.join(dir, 'Caddyfile');
  writeFileSync(
    file,
    `{\n\tadmin off\n\tauto_https off\n}\n:${port} {\n\treverse_proxy ${upstreamPorts.map((p) => `127.0.0.1:${p}`).join(' ')} {\n\t\tlb_policy round_robin\n\t}\n}\n`,
  );
  const proc = run(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], 'caddy');
  proc.child.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status < 500, 'Caddy');
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.child.kill('SIGTERM') };
}

async function startPgBouncer(directUrl) {
  const target = new URL(directUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympus-fleet-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(target.username || 'postgres');
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const fill = {
    DB_HOST: target.hostname,
    DB_PORT: target.port || '5432',
    LISTEN_ADDR: '127.0.0.1',
    LISTEN_PORT: String(port),
    AUTH_TYPE: 'trust',
    AUTH_FILE: path.join(dir, 'userlist.txt'),
    POOL_SIZE: String(POOL),
    ADMIN_USER: user,
    LOCK_TIMEOUT_MS: '5000',
    STATEMENT_TIMEOUT_MS: '30000',
  };
  const ini = readFileSync(path.join(ROOT, 'deploy/pgbouncer/pgbouncer.ini.template'), 'utf8').replace(/@([A-Z_]+)@/g, (_, k) => fill[k]);
  writeFileSync(path.join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const proc = run(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], 'pgbouncer');
  proc.child.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const url = new URL(directUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  await until(async () => {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await c.end();
    return true;
  }, `PgBouncer (${proc.log()})`);
  return { url: url.toString(), stop: () => proc.child.kill('SIGTERM') };
}

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
function signToken(secret, claims) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Users with three sessions each and their payments, written straight into the database (set-based SQL). */
async function seed(dbUrl, jwtSecret) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const tag = randomBytes(3).toString('hex');
    const users = await client.query(
      `INSERT INTO users (username, email, password_hash, referral_code)
       SELECT 'fleet' || $1 || i, 'fleet' || $1 || i || '@example.com', 'not-a-hash', 'F' || $1 || i FROM generate_series(1, $2::int) AS i
       RETURNING id`,
      [tag, SESSIONS / 3],
    );
    const sessions = await client.query(
      `INSERT INTO sessions (user_id, expires_at) SELECT u, now() + interval '1 day' FROM unnest($1::uuid[]) AS u, generate_series(1, 3) RETURNING id, user_id`,
      [users.rows.map((r) => r.id)],
    );
    const now = Math.floor(Date.now() / 1000);
    const tokens = sessions.rows.map((r) =>
      signToken(Buffer.from(jwtSecret), { sid: r.id, isGuest: false, role: 'user', sub: r.user_id, iat: now, exp: now + 86_400 }),
    );
    const tokenOf = new Map(sessions.rows.map((r, i) => [r.user_id, tokens[i]]));
    const payments = await client.query(
      `INSERT INTO payments (user_id, provider_payment_id, status, price_amount_cents, pay_currency, fee_percent, fee_cents, credits_cents, expires_at)
       SELECT u.id, 'fleet-' || $1 || '-' || row_number() OVER (), 'waiting', 2000, 'btc', 5, 100, 1900, now() + interval '1 day'
       FROM (SELECT unnest($2::uuid[]) AS id) u, generate_series(1, 1) LIMIT $3 RETURNING id, user_id`,
      [tag, users.rows.map((r) => r.id), PAYMENTS],
    );
    return { tokens, payments: payments.rows.map((r) => ({ id: r.id, token: tokenOf.get(r.user_id) })) };
  } finally {
    await client.end();
  }
}

/** One timed autocannon run after a warm-up of one request per item and instance; PostgreSQL's connections sampled throughout. */
async function drive(url, items, build, directUrl, dbName, upstreams = 1) {
  let next = 0;
  const requests = [{ setupRequest: (req) => ({ ...req, ...build(items[next++ % items.length]) }) }];
  const once = (options) =>
    new Promise((resolve, reject) =>
      autocannon({ url, connections: CONNECTIONS, timeout: 10, requests, ...options }, (e, r) => (e ? reject(e) : resolve(r))),
    );
  // Round robin spreads each session over the instances: every instance makes its own cache entry once.
  await once({ amount: items.length * upstreams });
  let peak = 0;
  let sampling = Boolean(directUrl);
  const sampler = (async () => {
    if (!directUrl) return;
    const c = new pg.Client({ connectionString: directUrl });
    await c.connect();
    while (sampling) {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [dbName],
      );
      peak = Math.max(peak, r.rows[0].n);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await c.end();
  })();
  const r = await once({ duration: DURATION });
  sampling = false;
  await sampler;
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    peakConnections: directUrl ? peak : null,
  };
}

const CEILING_SOURCE = `const body = JSON.stringify({ status: 'ok' });
require('node:http').createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); }).listen(Number(process.env.PORT), '127.0.0.1');`;

const name = `olympus_fleet_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: DB_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const direct = new URL(DB_URL);
direct.pathname = `/${name}`;
const directUrl = direct.toString();
const jwtSecret = randomBytes(32).toString('hex');
const stops = [];
const results = [];
try {
  // The CLI migrates the new database (and makes an admin nobody uses here).
  await createUser(
    { env: { DATABASE_URL: directUrl, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympus-fleet-')) } },
    {
      username: `fleetadmin${randomBytes(3).toString('hex')}`,
      password: 'a long passphrase 42',
      role: 'admin',
    },
  );
  const { tokens, payments } = await seed(directUrl, jwtSecret);
  const env = (databaseUrl, extra = {}) => ({
    NODE_ENV: 'production',
    ALLOW_SANDBOX: '1',
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    RATE_LIMITS: '0',
    DATABASE_URL: databaseUrl,
    ...extra,
  });
  const scenarios = [
    {
      key: 'me',
      name: `GET /api/auth/me, ${tokens.length} sessions`,
      items: tokens,
      build: (t) => ({ path: '/api/auth/me', headers: { authorization: `Bearer ${t}` } }),
    },
    {
      key: 'status',
      name: `GET /api/payments/{id}/status, ${payments.length} payments`,
      items: payments,
      build: (p) => ({ path: `/api/payments/${p.id}/status`, headers: { authorization: `Bearer ${p.token}` } }),
    },
  ];
  const pass = async (label, ports, sample) => {
    const ceiling = await startBuiltServer({ program: ['-e', CEILING_SOURCE], captureOutput: 'stderr', label: 'ceiling' });
    const ceilingProxy = await startCaddy([ceiling.url.split(':').pop()]);
    const proxy = await startCaddy(ports);
    try {
      for (const s of scenarios) {
        const top = await drive(ceilingProxy.url, s.items, () => ({ path: '/' }), null, null);
        const got = await drive(proxy.url, s.items, s.build, sample ? directUrl : null, name, ports.length);
        results.push({ setup: label, scenario: s.key, name: s.name, ...got, ceilingRps: top.rps });
        console.log(
          `${label.padEnd(34)} ${s.name.padEnd(44)} ${String(got.rps).padStart(6)}/s p99 ${String(got.p99).padStart(4)} ms  errors ${got.errors}  PostgreSQL connections at peak ${got.peakConnections}  (ceiling behind Caddy ${top.rps}/s)`,
        );
      }
    } finally {
      proxy.stop();
      ceilingProxy.stop();
      await ceiling.stop();
    }
  };

  // 1. One instance, straight on PostgreSQL, behind Caddy.
  const one = await startBuiltServer({ env: env(directUrl), label: 'one instance' });
  try {
    await pass('1 instance, PostgreSQL directly', [one.url.split(':').pop()], true);
  } finally {
    await one.stop();
  }
  // 2. The fleet through PgBouncer, behind Caddy.
  const bouncer = await startPgBouncer(directUrl);
  stops.push(() => bouncer.stop());
  const fleet = [];
  for (let i = 0; i < INSTANCES; i++)
    fleet.push(await startBuiltServer({ env: env(bouncer.url, { DATABASE_DIRECT_URL: directUrl }), label: `instance ${i + 1}` }));
  try {
    await pass(
      `${INSTANCES} instances through PgBouncer (${POOL})`,
      fleet.map((f) => f.url.split(':').pop()),
      true,
    );
  } finally {
    await Promise.all(fleet.map((f) => f.stop()));
  }
} finally {
  for (const stop of stops) await stop();
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  const c = new pg.Client({ connectionString: DB_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
}

console.log(
  `\nFleet of ${INSTANCES} through PgBouncer against one instance, ${os.availableParallelism()} cores, ${CONNECTIONS} connections, ${DURATION} s each (goal: ≥ ${GOAL_RATIO}×):`,
);
let failed = false;
for (const key of ['me', 'status']) {
  const [a, b] = results.filter((r) => r.scenario === key);
  const ratio = b.rps / a.rps;
  const ok = ratio >= GOAL_RATIO && b.errors === 0 && a.errors === 0;
  failed ||= !ok;
  console.log(
    `  ${a.name.padEnd(44)} 1 instance ${a.rps}/s (ceiling ${a.ceilingRps}/s, ${a.peakConnections} connections)  fleet ${b.rps}/s (ceiling ${b.ceilingRps}/s, ${b.peakConnections} connections)  ${ratio.toFixed(2)}× ${ok ? 'ok' : 'BELOW GOAL'}`,
  );
}
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const file = path.join(ROOT, 'bench/results', `fleet-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      cores: os.availableParallelism(),
      instances: INSTANCES,
      pool: POOL,
      connections: CONNECTIONS,
      duration: DURATION,
      results,
    },
    null,
    2,
  ),
);
console.log(`\nWritten to ${path.relative(ROOT, file)}`);
process.exitCode = failed ? 1 : 0;
