// `npm run bench -- --scale [--sizes=10000,100000,1000000] [--engines=postgres,pglite] [--pglite-max=100000]
//   [--samples=200] [--concurrency=8] [--read-seconds=60]`
//
// Costs that stay flat as data grows (docs/performance.md#scale). For each database and each size (ledger
// entries; users, payments, exchanges, ad impressions, tickets with messages, help articles and
// notifications in proportion, bench/scale-seed.mjs), seeds a fresh database with set-based SQL, starts
// the built server (scripts/built-app.mjs) and times the reads people and staff open most: sequentially
// (p50, p99) and `--concurrency` at a time (p99), over many distinct users and sessions, then the
// maintenance prune (the hourly job, run as its handler runs it). Prints each read's p99 at each size and
// the ratio of the largest size to the smallest beside the goal (at most 2x); exits 1 when a ratio is
// above it. The embedded database seeds 1,000,000 entries slowly: its largest size is `--pglite-max`
// (default 100,000), and the table says which sizes ran. Writes bench/results/scale-<time>.json.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PASSWORD, api } from '../test/reliability/lib.mjs';
import { createUser, ensureBuilt, freePort, ROOT, startBuiltServer } from '../scripts/built-app.mjs';
import { HISTORY_DAYS, ledgerInconsistencies, LONG_LIVED_USERS, seedDeadRows, seedScale } from './scale-seed.mjs';

process.chdir(ROOT);
const args = process.argv.slice(2);
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SIZES = opt('sizes', '10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const PGLITE_MAX = Number(opt('pglite-max', 100_000));
const SAMPLES = Number(opt('samples', 200));
const CONCURRENCY = Number(opt('concurrency', 8));
/** At most this long per read (half one at a time, half concurrent): a slow read is measured on fewer requests. */
const READ_SECONDS = Number(opt('read-seconds', 60));
const DB_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const ENGINES = opt('engines', DB_URL ? 'postgres,pglite' : 'pglite').split(',');
/** The goal: a read at the largest size costs at most this many times what it costs at the smallest. */
const GOAL_RATIO = 2;
/** Below this, a p99 is noise on a shared machine: ratios are taken from at least this many ms. */
const FLOOR_MS = 5;
const SEED_TIMEOUTS = { lockMs: 60_000, statementMs: 3_600_000 };

if (!(await ensureBuilt({ parts: ['server'] }))) process.exit(1);
const dist = (file) => import(pathToFileURL(path.join(ROOT, 'dist', file)).href);
const { openDatabase } = await dist('server/db/client.js');
const { pruneDeadRows } = await dist('server/modules/maintenance/prune.js');
const { encodeLedgerCursor } = await dist('shared/schemas/credits.js');

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An HS256 session token exactly as the server signs them (src/server/modules/auth/tokens.ts). */
function signToken(secret, claims) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}
const day = (offsetDays) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
const round = (ms) => Math.round(ms * 10) / 10;

/** A throwaway PostgreSQL database: its URL and how to drop it. */
async function throwawayDatabase() {
  const name = `olympus_scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DB_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(DB_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: DB_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Seeds, then picks what the reads ask for: sessions of the long-lived users and of up to SAMPLES other
 * users spread over all of them (signed here with the server's secret), an entry of each for its
 * receipt, and the cursors of the long-lived users' deep pages.
 */
async function seedAndPick(env, size) {
  // A million rows in one statement outlasts the app's statement timeout (30 s).
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2, timeouts: SEED_TIMEOUTS });
  const q = (text, values) => database.pool.query(text, values);
  try {
    const started = performance.now();
    const { plan, seconds } = await seedScale(q, size, { log: (line) => console.log(line) });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const consistency = await ledgerInconsistencies(q);
    if (consistency.brokenChain || consistency.wrongBalances)
      throw new Error(`the seeded ledger is inconsistent: ${JSON.stringify(consistency)}`);
    const stride = Math.max(1, Math.floor(plan.regularUsers / SAMPLES));
    const picked = await q(
      `INSERT INTO sessions (user_id, expires_at)
       SELECT id, now() + interval '1 day' FROM users
       WHERE username ~ '^scale[0-9]+$' AND (substr(username, 6)::int <= $1 OR (substr(username, 6)::int - $1 - 1) % $2 = 0)
       RETURNING id, user_id, (SELECT substr(username, 6)::int FROM users u WHERE u.id = user_id) AS n`,
      [LONG_LIVED_USERS, stride],
    );
    const now = Math.floor(Date.now() / 1000);
    const secret = Buffer.from(env.JWT_SECRET);
    const sessions = picked.rows.map((r) => ({
      n: r.n,
      userId: r.user_id,
      token: signToken(secret, { sid: r.id, isGuest: false, role: 'user', sub: r.user_id, iat: now, exp: now + 86_400 }),
    }));
    const longLived = sessions.filter((s) => s.n <= LONG_LIVED_USERS);
    const regular = sessions.filter((s) => s.n > LONG_LIVED_USERS).slice(0, SAMPLES);
    // One entry of each user for its receipt: one of the older ones.
    const entries = await q(
      `SELECT DISTINCT ON (user_id) user_id, id FROM credit_ledger_entries WHERE user_id = ANY($1::uuid[])
       ORDER BY user_id, created_at OFFSET 0`,
      [sessions.map((s) => s.userId)],
    );
    const entryOf = new Map(entries.rows.map((r) => [r.user_id, r.id]));
    // The deep pages of the long-lived users: the last full pages of 20, by offset and by cursor.
    const deep = [];
    const pages = Math.floor(plan.longLivedEntries / 20);
    for (const s of longLived) {
      for (let back = 0; back < 5; back++) {
        const page = Math.max(2, pages - back);
        const last = await q(
          `SELECT to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS c, balance_after_cents AS b, id FROM credit_ledger_entries
           WHERE user_id = $1 ORDER BY created_at DESC, balance_after_cents DESC, id DESC OFFSET $2 LIMIT 1`,
          [s.userId, (page - 1) * 20 - 1],
        );
        const row = last.rows[0];
        deep.push({ token: s.token, page, cursor: encodeLedgerCursor({ createdAt: row.c, balanceAfterCents: Number(row.b), id: row.id }) });
      }
    }
    return {
      plan,
      seeding: { seconds: seedSeconds, byTable: seconds },
      longLived,
      regular: regular.map((s) => ({ ...s, entryId: entryOf.get(s.userId) })),
      deep,
    };
  } finally {
    await database.close();
  }
}

/** Times each request (status 200 expected; anything else is counted and reported). */
async function timeAll(baseUrl, requests, concurrency, budgetSeconds = Infinity) {
  const deadline = performance.now() + budgetSeconds * 1000;
  const latencies = [];
  let failures = 0;
  let firstFailure = null;
  let next = 0;
  async function worker() {
    while (next < requests.length) {
      if (performance.now() > deadline) break;
      const { path: route, token } = requests[next++];
      const started = performance.now();
      try {
        const res = await fetch(baseUrl + route, { headers: token ? { authorization: `Bearer ${token}` } : {} });
        const body = await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (res.status !== 200) {
          failures++;
          firstFailure ??= `${res.status} ${route}: ${Buffer.from(body).toString('utf8').slice(0, 200)}`;
        }
      } catch (err) {
        // A closed connection counts as a failure of the read, and the run goes on.
        latencies.push(performance.now() - started);
        failures++;
        firstFailure ??= `${route}: ${err.cause?.message ?? err.message}`;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies: latencies.sort((a, b) => a - b), failures, firstFailure };
}

/**
 * One read: a warm-up pass (each request once, up to 20), SAMPLES requests one at a time, then SAMPLES
 * with CONCURRENCY in flight, each time going round the fixtures (many users, each its own session).
 */
async function measureRead(baseUrl, fixtures) {
  const cycle = (n) => Array.from({ length: n }, (_, i) => fixtures[i % fixtures.length]);
  await timeAll(baseUrl, cycle(Math.min(20, fixtures.length)), 1);
  const seq = await timeAll(baseUrl, cycle(SAMPLES), 1, READ_SECONDS / 2);
  const conc = await timeAll(baseUrl, cycle(SAMPLES), CONCURRENCY, READ_SECONDS / 2);
  const failures = seq.failures + conc.failures;
  if (failures) console.log(`      ${failures} failed, first: ${seq.firstFailure ?? conc.firstFailure}`);
  return {
    samples: seq.latencies.length,
    p50: round(quantile(seq.latencies, 0.5)),
    p99: round(quantile(seq.latencies, 0.99)),
    concurrentP50: round(quantile(conc.latencies, 0.5)),
    concurrentP99: round(quantile(conc.latencies, 0.99)),
    failures,
  };
}

/** The reads, each with the requests it goes round. */
function readsFor(fixtures, staffToken) {
  const { regular, longLived, deep } = fixtures;
  const from = day(-HISTORY_DAYS - 1);
  const to = day(0);
  const words = ['deposit', 'withdraw', 'password', 'ledger', 'support'];
  const staff = (route) => ({ path: route, token: staffToken });
  return {
    'ledger history, first page': regular.concat(longLived).map((s) => ({ path: '/api/credits/history?pageSize=20', token: s.token })),
    'ledger history, deep page (offset)': deep.map((d) => ({ path: `/api/credits/history?pageSize=20&page=${d.page}`, token: d.token })),
    'ledger history, deep page (cursor)': deep.map((d) => ({
      path: `/api/credits/history?pageSize=20&cursor=${d.cursor}`,
      token: d.token,
    })),
    receipt: regular.map((s) => ({ path: `/api/credits/ledger/${s.entryId}/receipt`, token: s.token })),
    'ledger CSV, 2 years': regular.map((s) => ({ path: `/api/credits/ledger.csv?from=${from}&to=${to}`, token: s.token })),
    'notifications, first page': regular.map((s) => ({ path: '/api/notifications', token: s.token })),
    'staff user search': regular.map((s) => staff(`/api/admin/users?search=scale${s.n}`)),
    'staff ticket queue': [
      staff('/api/staff/tickets'),
      staff('/api/staff/tickets?status=open'),
      staff('/api/staff/tickets?search=deposit'),
    ],
    // The last page of the queue (offsets: every newer ticket is read and skipped).
    'staff ticket queue, last page': [staff(`/api/staff/tickets?page=${Math.max(1, Math.floor(fixtures.plan.tickets / 20))}`)],
    'support report, 30 days': [staff(`/api/staff/support/report?from=${day(-29)}&to=${to}`)],
    'help search': words.map((w) => ({ path: `/api/help/articles?search=${w}` })),
    'ad report, 30 days': [staff('/api/staff/ads/stats?days=30')],
  };
}

/** The server's resident memory while the long-lived users export their whole ledger, one at a time. */
async function csvMemory(server, longLived) {
  const from = day(-HISTORY_DAYS - 1);
  const to = day(0);
  const before = server.rssMiB();
  let peak = before ?? 0;
  let bytes = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB() ?? 0)), 10);
  const started = performance.now();
  try {
    for (const s of longLived) {
      const res = await fetch(`${server.url}/api/credits/ledger.csv?from=${from}&to=${to}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      bytes = Math.max(bytes, (await res.arrayBuffer()).byteLength);
      if (res.status !== 200) throw new Error(`CSV export: ${res.status}`);
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    rssBeforeMiB: before,
    rssPeakMiB: peak,
    largestCsvKiB: Math.round(bytes / 1024),
    msPerExport: round((performance.now() - started) / longLived.length),
  };
}

/** The hourly prune (src/server/modules/maintenance), as its job's handler runs it: three runs, the first with dead rows. */
async function measurePrune(env, plan) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2, timeouts: SEED_TIMEOUTS });
  try {
    // Written now, with the server stopped: its own hourly prune would have removed them during the reads.
    await seedDeadRows((text, values) => database.pool.query(text, values), plan);
    const runs = [];
    let removed = null;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = await pruneDeadRows(database.db);
      runs.push(round(performance.now() - started));
      removed ??= result;
    }
    return { runs, removedSessions: removed.endedSessions, removedNotifications: removed.notifications };
  } finally {
    await database.close();
  }
}

async function runSize(engine, size) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympus-scale-'));
  const env = {
    NODE_ENV: 'production',
    ALLOW_SANDBOX: '1',
    HOST: '127.0.0.1',
    JWT_SECRET: randomBytes(32).toString('hex'),
    // Errors and warnings only: the request log is the same work at every size, and the errors are shown.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMITS: '0',
    REQUIRE_STAFF_2FA: '0',
    DATA_DIR: dataDir,
  };
  let drop = async () => {};
  if (engine === 'postgres') {
    const db = await throwawayDatabase();
    env.DATABASE_URL = db.url;
    drop = db.drop;
  }
  let server = null;
  try {
    const adminName = `scaleadmin${randomBytes(3).toString('hex')}`;
    await createUser({ env }, { username: adminName, password: PASSWORD, role: 'admin' });
    console.log(`  ${engine}, ${size.toLocaleString('en')} ledger entries: seeding`);
    const fixtures = await seedAndPick(env, size);
    console.log(`    seeded in ${fixtures.seeding.seconds} s`);
    server = await startBuiltServer({
      port: await freePort(),
      dataDir,
      env,
      captureOutput: true,
      label: `the server (${engine})`,
      readyTimeoutMs: 300_000,
    });
    const login = await api(server.url, 'POST', '/api/login', { body: { username: adminName, password: PASSWORD, turnstileToken: 'ok' } });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
    const reads = {};
    for (const [name, requests] of Object.entries(readsFor(fixtures, login.json.token))) {
      reads[name] = await measureRead(server.url, requests);
      if (reads[name].failures) console.log(server.output().slice(-1500));
      console.log(
        `    ${name}: p50 ${reads[name].p50} ms, p99 ${reads[name].p99} ms (x${CONCURRENCY}: p99 ${reads[name].concurrentP99} ms; ${reads[name].samples} one at a time)`,
      );
    }
    const csv = await csvMemory(server, fixtures.longLived);
    console.log(`    CSV of a long-lived user (${csv.largestCsvKiB} KiB): RSS ${csv.rssBeforeMiB} -> peak ${csv.rssPeakMiB} MiB`);
    await server.stop();
    server = null;
    const prune = await measurePrune(env, fixtures.plan);
    console.log(
      `    prune: ${prune.runs.join(', ')} ms (removed ${prune.removedSessions} sessions, ${prune.removedNotifications} notifications)`,
    );
    reads['nightly prune (first run)'] = { p50: prune.runs[0], p99: prune.runs[0], concurrentP99: null, failures: 0 };
    return { size, plan: fixtures.plan, seeding: fixtures.seeding, reads, csv, prune };
  } finally {
    if (server) await server.kill();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = {};
const skipped = [];
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const file = path.join(ROOT, 'bench/results', `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
/** Written after each size, so a run stopped part-way keeps what it measured. */
function writeResults() {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const at = new Date().toISOString();
  writeFileSync(file, JSON.stringify({ at, sizes: SIZES, samples: SAMPLES, concurrency: CONCURRENCY, cores, results, skipped }, null, 2));
}
for (const engine of ENGINES) {
  if (engine === 'postgres' && !DB_URL) {
    console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
    continue;
  }
  results[engine] = [];
  for (const size of SIZES) {
    if (engine === 'pglite' && size > PGLITE_MAX) {
      skipped.push(`${engine} ${size}`);
      console.log(`  pglite, ${size.toLocaleString('en')}: skipped (above --pglite-max=${PGLITE_MAX})`);
      continue;
    }
    results[engine].push(await runSize(engine, size));
    writeResults();
  }
}

// The table: each read's p99 at each size, the ratio of the largest to the smallest, the goal.
let failed = false;
const lines = [];
for (const [engine, runs] of Object.entries(results)) {
  if (!runs.length) continue;
  const first = runs[0];
  const last = runs[runs.length - 1];
  lines.push('', `${engine}: p99 in ms (sequential; x${CONCURRENCY} concurrent in brackets), sizes in ledger entries`);
  const header = ['read', ...runs.map((r) => r.size.toLocaleString('en')), `p99, ${last.size / first.size}x data`, 'goal', 'p50 ratio'];
  const rows = [header];
  for (const name of Object.keys(first.reads)) {
    const cells = runs.map((r) => {
      const m = r.reads[name];
      return m.concurrentP99 == null ? `${m.p99}` : `${m.p99} (${m.concurrentP99})`;
    });
    const ratio = Math.max(last.reads[name].p99, FLOOR_MS) / Math.max(first.reads[name].p99, FLOOR_MS);
    const errors = runs.some((r) => r.reads[name].failures);
    const ok = !errors && (runs.length < 2 || ratio <= GOAL_RATIO);
    if (!ok) failed = true;
    const p50Ratio = Math.max(last.reads[name].p50, FLOOR_MS) / Math.max(first.reads[name].p50, FLOOR_MS);
    rows.push([
      name,
      ...cells,
      runs.length < 2 ? '-' : `${ratio.toFixed(2)}x`,
      `<= ${GOAL_RATIO}x ${errors ? 'ERRORS' : ok ? 'ok' : 'ABOVE'}`,
      runs.length < 2 ? '-' : `${p50Ratio.toFixed(2)}x`,
    ]);
  }
  rows.push(['CSV RSS peak (MiB)', ...runs.map((r) => `${r.csv.rssPeakMiB}`), '', 'flat', '']);
  rows.push(['seeding (s)', ...runs.map((r) => `${r.seeding.seconds}`), '', '', '']);
  const widths = header.map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows) lines.push(row.map((c, i) => String(c).padEnd(widths[i])).join('  '));
}
if (skipped.length) lines.push('', `not run: ${skipped.join(', ')} (--pglite-max=${PGLITE_MAX})`);
lines.push('', `Ratios compare p99s of at least ${FLOOR_MS} ms (below that, a shared machine's noise). Goals: docs/performance.md#scale.`);
console.log(lines.join('\n'));
writeResults();
console.log(`\nWritten to ${path.relative(ROOT, file)}`);
process.exit(failed ? 1 : 0);
