// Shared pieces of the reliability suite: a throwaway PostgreSQL database, the production build as a
// child process, HTTP helpers with deadlines, and the ledger invariants. Loopback only; every wait
// is bounded.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createUser, ROOT, startBuiltServer } from '../../scripts/built-app.mjs';

export { freePort, ROOT, SERVER_JS } from '../../scripts/built-app.mjs';
export const IPN_SECRET = 'sandbox-ipn-secret';
export const PASSWORD = 'a long passphrase 42';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function adminUrl() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
  return url;
}

/** The admin every test database gets, made with the operator command (createDatabase). */
export const STAFF = { username: 'reliability_admin', password: PASSWORD, role: 'admin' };

/**
 * A new database on the PostgreSQL server of TEST_DATABASE_URL, migrated and with the STAFF admin
 * (the sandbox controls answer staff only in production); `drop()` removes it. `root`: the built checkout
 * whose operator command migrates it and makes the admin (a previous release: its migrations only).
 */
export async function createDatabase(prefix = 'olympus_rel', { root } = {}) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  await createUser({ env: { DATABASE_URL: url.toString() }, root }, STAFF);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on('error', () => {});
  return {
    name,
    url: url.toString(),
    pool,
    async drop() {
      await pool.end().catch(() => {});
      const cleanup = new pg.Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * The production build (dist/server/server.js) as a child process on a loopback port, with the
 * sandbox providers. Answers once /readyz says ready (bounded); `kill(signal)` and `stop()` end it.
 * Staff sign in with a password alone (REQUIRE_STAFF_2FA=0): the sandbox controls need a staff session.
 */
export function startServer({ databaseUrl, port, jwtSecret, env = {}, label = 'server', root }) {
  return startBuiltServer({
    port,
    label,
    root,
    env: {
      NODE_ENV: 'production',
      ALLOW_SANDBOX: '1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'fatal',
      RATE_LIMITS: '0',
      REQUIRE_STAFF_2FA: '0',
      ...env,
    },
  });
}

/** One JSON call with a deadline: never hangs longer than `timeoutMs`. */
export async function api(base, method, route, { body, token, headers = {}, timeoutMs = 15_000 } = {}) {
  const h = { ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  if (token) h.authorization = `Bearer ${token}`;
  const started = Date.now();
  const res = await fetch(`${base}${route}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json, text, ms: Date.now() - started };
}

export async function register(base, name) {
  const username = `${name}${randomBytes(3).toString('hex')}`;
  const res = await api(base, 'POST', '/api/register', {
    body: { username, email: `${username}@example.com`, password: PASSWORD, turnstileToken: 'ok' },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return { username, token: res.json.token, userId: res.json.user._id };
}

/** Keys sorted at every depth, as NOWPayments signs (src/server/modules/payments/ipn-signature.ts). */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

export function signIpn(body, secret = IPN_SECRET) {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeys(body)))
    .digest('hex');
}

const staffSessions = new Map();

/** A STAFF access token for the server at `base`: one sign-in per server, shared by concurrent callers. */
export function staffToken(base) {
  if (!staffSessions.has(base)) {
    const signIn = api(base, 'POST', '/api/login', {
      body: { username: STAFF.username, password: STAFF.password, turnstileToken: 'ok' },
    }).then((res) => {
      if (res.status !== 200) throw new Error(`staff login: ${res.status} ${res.text}`);
      return res.json.token;
    });
    signIn.catch(() => staffSessions.delete(base));
    staffSessions.set(base, signIn);
  }
  return staffSessions.get(base);
}

/** A sandbox control (staff only in production); signs in again once if the session is gone (a restarted server). */
export async function sandboxControl(base, route, body) {
  let res = await api(base, 'POST', route, { body, token: await staffToken(base) });
  if (res.status === 401) {
    staffSessions.delete(base);
    res = await api(base, 'POST', route, { body, token: await staffToken(base) });
  }
  return res;
}

/** Creates a sandbox deposit and finishes it at the provider without sending the IPN; answers the IPN to send. */
export async function finishedDeposit(base, user, amount = 20) {
  const created = await api(base, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount } });
  if (created.status !== 201) throw new Error(`deposit: ${created.status} ${created.text}`);
  const payment = created.json.payment;
  const moved = await sandboxControl(base, `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
    status: 'finished',
    ipn: false,
  });
  if (moved.status !== 200) throw new Error(`sandbox: ${moved.status} ${moved.text}`);
  const remote = await api(base, 'GET', `/sandbox/nowpayments/v1/payment/${payment.providerPaymentId}`, {
    headers: { 'x-api-key': 'sandbox-api-key' },
  });
  return { payment, ipn: remote.json, creditsCents: Math.round(payment.credits * 100) };
}

export function postIpn(base, ipn, timeoutMs = 15_000) {
  return api(base, 'POST', '/api/payments/ipn', { body: ipn, headers: { 'x-nowpayments-sig': signIpn(ipn) }, timeoutMs });
}

/** Runs `task` over `items` with at most `limit` in flight; answers the settled results in order. */
export async function pool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await Promise.resolve(task(items[i], i)).then(
        (value) => ({ ok: true, value }),
        (error) => ({ ok: false, error }),
      );
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The ledger's invariants (docs/product.md#credits): each user's balance equals the sum of their entries and
 * the last entry's balance-after; no balance is negative; no reference is used twice. Answers the
 * list of violations (empty when all hold).
 */
export async function ledgerViolations(db) {
  const problems = [];
  const sums = await db.query(`
    SELECT u.id, u.credits_cents AS balance, coalesce(sum(e.amount_cents), 0)::bigint AS total,
           (SELECT balance_after_cents FROM credit_ledger_entries l WHERE l.user_id = u.id ORDER BY l.created_at DESC, l.balance_after_cents DESC LIMIT 1) AS last_after
    FROM users u LEFT JOIN credit_ledger_entries e ON e.user_id = u.id
    GROUP BY u.id, u.credits_cents`);
  for (const row of sums.rows) {
    if (Number(row.balance) !== Number(row.total)) problems.push(`user ${row.id}: balance ${row.balance} != sum of entries ${row.total}`);
    if (Number(row.balance) < 0) problems.push(`user ${row.id}: negative balance ${row.balance}`);
    if (row.last_after !== null && Number(row.last_after) !== Number(row.balance))
      problems.push(`user ${row.id}: last balance-after ${row.last_after} != balance ${row.balance}`);
  }
  const dupes = await db.query(`SELECT reference, count(*)::int AS n FROM credit_ledger_entries GROUP BY reference HAVING count(*) > 1`);
  for (const row of dupes.rows) problems.push(`reference ${row.reference} used ${row.n} times`);
  return problems;
}

/** Every payment finished at the provider is completed here and credited exactly once, for its full amount. */
export async function paymentViolations(db, expected) {
  const problems = [];
  const rows = await db.query(
    `SELECT p.id, p.status, p.credited_cents, (SELECT count(*)::int FROM credit_ledger_entries e WHERE e.reference = 'payment:' || p.id::text) AS entries,
            (SELECT coalesce(sum(amount_cents), 0)::bigint FROM credit_ledger_entries e WHERE e.reference = 'payment:' || p.id::text) AS credited
     FROM payments p WHERE p.id = ANY($1::uuid[])`,
    [expected.map((e) => e.id)],
  );
  const byId = new Map(rows.rows.map((r) => [r.id, r]));
  for (const { id, creditsCents } of expected) {
    const row = byId.get(id);
    if (!row) problems.push(`payment ${id} missing`);
    else if (row.status !== 'completed') problems.push(`payment ${id} is ${row.status}`);
    else if (row.entries !== 1) problems.push(`payment ${id} has ${row.entries} ledger entries`);
    else if (Number(row.credited) !== creditsCents || Number(row.credited_cents) !== creditsCents)
      problems.push(`payment ${id} credited ${row.credited} (row says ${row.credited_cents}), expected ${creditsCents}`);
  }
  return problems;
}

/** Payments still waiting to be completed, of those expected. */
export async function unfinishedCount(db, ids) {
  const res = await db.query(`SELECT count(*)::int AS n FROM payments WHERE id = ANY($1::uuid[]) AND status <> 'completed'`, [ids]);
  return res.rows[0].n;
}

/** Milliseconds as a short human figure. */
export const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Numeric flag from argv (`--name=value`) or the environment, with a default. */
export function flag(name, envName, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = arg ? arg.split('=')[1] : process.env[envName];
  const n = Number(raw);
  return raw !== undefined && Number.isFinite(n) ? n : fallback;
}

/** Runs a command to its end within `timeoutMs`; answers its output, throws with it on failure. */
function runTo(cmd, args, { cwd, timeoutMs = 300_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => (output = (output + chunk).slice(-10_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => reject(err));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal}):\n${output}`));
    });
  });
}

/**
 * The release in production (the last of src/server/db/migrations/releases.json), built from its commit:
 * `git archive` of the commit into a directory under the system's temporary directory, node_modules linked
 * to this checkout's (the dependencies are the same), and its server half built as its own
 * `build:server` does, without type-checking. The web half is not built: the server starts without it.
 * The directory is kept per commit (a commit never changes), so the next run starts at once. Fails with
 * what to do when the commit is not in this clone.
 * @returns {Promise<{ name: string, commit: string, lastMigration: string, root: string }>}
 */
export async function previousRelease() {
  const { releases } = JSON.parse(readFileSync(path.join(ROOT, 'src/server/db/migrations/releases.json'), 'utf8'));
  const release = releases.at(-1);
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const has = () => {
    try {
      return git('rev-parse', '--verify', '--quiet', `${release.commit}^{commit}`);
    } catch {
      return '';
    }
  };
  let commit = has();
  if (!commit && git('rev-parse', '--is-shallow-repository') === 'true') {
    if (!git('remote')) {
      throw new Error(
        `The previous release ${release.name} (commit ${release.commit}) is not in this shallow clone, which has no remote to fetch it from: clone the repository in full.`,
      );
    }
    console.log(`# shallow clone: fetching the full history for commit ${release.commit}`);
    git('fetch', '--unshallow', '--quiet');
    commit = has();
  }
  if (!commit) {
    throw new Error(
      `The previous release ${release.name} (commit ${release.commit} in src/server/db/migrations/releases.json) is not in this repository: fetch it, or correct the record.`,
    );
  }

  const root = path.join(tmpdir(), `olympus-release-${commit}`);
  const built = () => existsSync(path.join(root, 'dist/server/server.js')) && existsSync(path.join(root, 'dist/package.json'));
  if (!built()) {
    const work = `${root}.part-${process.pid}`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      await runTo('sh', ['-c', `git archive ${commit} | tar -x -C "${work}"`], { cwd: ROOT });
      if (!existsSync(path.join(work, 'scripts/write-dist-package.mjs')))
        throw new Error(`commit ${commit} has no scripts/write-dist-package.mjs: this test cannot build it`);
      symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(work, 'node_modules'));
      console.log(`# building the previous release ${release.name} (${release.commit}): server half`);
      await runTo(process.execPath, [path.join(work, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json', '--noCheck'], {
        cwd: work,
      });
      await runTo(process.execPath, ['scripts/write-dist-package.mjs'], { cwd: work });
      rmSync(root, { recursive: true, force: true });
      renameSync(work, root);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { name: release.name, commit, lastMigration: release.lastMigration, root };
}

/** How many migrations a database has applied (Drizzle's journal table). */
export async function appliedMigrationCount(db) {
  const res = await db.query(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
  return res.rows[0].n;
}
