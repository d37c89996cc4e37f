// Shared pieces of the reliability suite: a throwaway PostgreSQL database, the production build as a
// child process, HTTP helpers with deadlines, and the ledger invariants. Loopback only; every wait
// is bounded.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_JS = path.join(ROOT, 'dist/server/server.js');
export const IPN_SECRET = 'sandbox-ipn-secret';
export const PASSWORD = 'a long passphrase 42';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function adminUrl() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
  return url;
}

/** A new, empty database on the PostgreSQL server of TEST_DATABASE_URL; `drop()` removes it. */
export async function createDatabase(prefix = 'olympus_rel') {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
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

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The production build (dist/server/server.js) as a child process on a loopback port, with the
 * sandbox providers. Answers once /readyz says ready (bounded); `kill(signal)` and `stop()` end it.
 */
export async function startServer({ databaseUrl, port, jwtSecret, env = {}, label = 'server' }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-rel-'));
  const child = spawn(process.execPath, [SERVER_JS], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ALLOW_SANDBOX: '1',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'fatal',
      RATE_LIMITS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${label} exited during start:\n${output}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label} not ready within 60 s:\n${output}`);
    }
    await sleep(200);
  }
  return {
    url,
    pid: child.pid,
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      let timer;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
    },
    async stop() {
      await this.kill('SIGTERM');
    },
    /** Resident set size of the process in MiB (Linux /proc), or null elsewhere. */
    async rssMiB() {
      const { readFile } = await import('node:fs/promises');
      try {
        const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null;
      } catch {
        return null;
      }
    },
  };
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
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}

export function signIpn(body, secret = IPN_SECRET) {
  return createHmac('sha512', secret).update(JSON.stringify(sortKeys(body))).digest('hex');
}

/** Creates a sandbox deposit and finishes it at the provider without sending the IPN; answers the IPN to send. */
export async function finishedDeposit(base, user, amount = 20) {
  const created = await api(base, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount } });
  if (created.status !== 201) throw new Error(`deposit: ${created.status} ${created.text}`);
  const payment = created.json.payment;
  const moved = await api(base, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, { body: { status: 'finished', ipn: false } });
  if (moved.status !== 200) throw new Error(`sandbox: ${moved.status} ${moved.text}`);
  const remote = await api(base, 'GET', `/sandbox/nowpayments/v1/payment/${payment.providerPaymentId}`, { headers: { 'x-api-key': 'sandbox-api-key' } });
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
    if (row.last_after !== null && Number(row.last_after) !== Number(row.balance)) problems.push(`user ${row.id}: last balance-after ${row.last_after} != balance ${row.balance}`);
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
    else if (Number(row.credited) !== creditsCents || Number(row.credited_cents) !== creditsCents) problems.push(`payment ${id} credited ${row.credited} (row says ${row.credited_cents}), expected ${creditsCents}`);
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
