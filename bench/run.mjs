// `npm run bench [-- --quick] [-- --engines=postgres,pglite] [-- --connections=100] [-- --duration=10]`
//
// Drives the production build (dist/server/server.js) with autocannon, first on PostgreSQL
// (TEST_DATABASE_URL or BENCH_DATABASE_URL; a throwaway database is created and dropped), then on the
// embedded database, next to a bare node:http server answering a fixed JSON body (the ceiling on
// this machine, measured in the same run). Writes bench/results/<time>.json and prints a table.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { PASSWORD, ROOT, SERVER_JS, api, freePort, pool, register, signIpn, sleep } from '../test/reliability/lib.mjs';

process.chdir(ROOT);
const args = process.argv.slice(2);
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const QUICK = args.includes('--quick');
const CONNECTIONS = Number(opt('connections', 100));
const DURATION = Number(opt('duration', QUICK ? 4 : 15));
const IPNS = Number(opt('ipns', QUICK ? 300 : 1500));
const DB_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const ENGINES = opt('engines', DB_URL ? 'postgres,pglite' : 'pglite').split(',');
const CORES = os.availableParallelism?.() ?? os.cpus().length;

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}
const run = (cmd, argv) => new Promise((resolve) => spawn(cmd, argv, { stdio: 'inherit' }).on('exit', (code) => resolve(code ?? 1)));
if (!existsSync(SERVER_JS) || Math.max(newest('src/server'), newest('src/shared')) > statSync(SERVER_JS).mtimeMs) {
  console.log('Building the server (dist/server is missing or older than the sources)...');
  if ((await run('npm', ['run', 'build:server'])) !== 0) process.exit(1);
}

/** A child process, answering once `readyUrl` answers 200 (bounded). */
async function startProcess(argv, env, readyUrl) {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-5000)));
  const deadline = Date.now() + 60_000;
  while (!(await fetch(readyUrl, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${argv.join(' ')} did not start:\n${stderr}`);
    }
    await sleep(200);
  }
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const CEILING_SOURCE = `
const body = JSON.stringify({ status: 'ok' });
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');`;

/**
 * One autocannon run; answers req/s, latency percentiles and error counts. Timed runs start with a
 * discarded 2-second warm-up, so neither the load generator's nor the server's JIT compiler is
 * measured (the first run of a cold autocannon reported the ceiling at half its value).
 */
async function drive(name, options) {
  if (!options.amount) await measure({ ...options, duration: 2 });
  const result = await measure(options);
  return { name, ...result };
}

function measure(options) {
  return new Promise((resolve, reject) => {
    // A fixed `amount` of requests (the IPNs) runs until they are all answered, not for a duration.
    const settings = { connections: CONNECTIONS, timeout: 10, ...(options.amount ? {} : { duration: DURATION }), ...options };
    autocannon(settings, (err, result) => {
      if (err) return reject(err);
      const seconds = (result.duration ?? DURATION) || DURATION;
      resolve({
        requests: result.requests.total,
        rps: Math.round(options.amount ? result.requests.total / seconds : result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        seconds: Math.round(seconds * 10) / 10,
      });
    });
  });
}

async function benchEngine(engine, ceiling) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let dropDatabase = async () => {};
  const env = {
    NODE_ENV: 'production',
    ALLOW_SANDBOX: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    // Rate limits would answer 429 to a load generator on one address; they are measured off.
    RATE_LIMITS: '0',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympus-bench-')),
  };
  if (engine === 'postgres') {
    const name = `olympus_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DB_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(DB_URL);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: DB_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  // An admin account (to create the ad), made with the CLI before the server holds the database.
  const adminName = `benchadmin${randomBytes(3).toString('hex')}`;
  const cli = spawn(process.execPath, [path.join(ROOT, 'dist/server/cli.js'), 'create-user', '--username', adminName, '--password', PASSWORD, '--role', 'admin'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  if ((await new Promise((resolve) => cli.on('exit', resolve))) !== 0) throw new Error('could not create the admin account');
  const server = await startProcess([SERVER_JS], env, `${url}/readyz`);
  try {
    // Fixtures: users, a payment to poll, an ad, and finished payments whose IPNs have not been sent.
    const users = [];
    for (let i = 0; i < 10; i++) users.push(await register(url, 'bench'));
    const me = users[0];
    const deposit = await api(url, 'POST', '/api/payments/deposit', { token: me.token, body: { crypto: 'btc', amount: 20 } });
    const paymentId = deposit.json.payment._id;
    const adminLogin = await api(url, 'POST', '/api/login', { body: { username: adminName, password: PASSWORD, turnstileToken: 'ok' } });
    const ad = await api(url, 'POST', '/api/staff/ads', { token: adminLogin.json.token, body: { placement: 'home-banner', title: 'Bench ad', targetUrl: 'https://example.com/' } });
    const adId = ad.json.ad._id;
    const ipnFixtures = await pool(Array.from({ length: IPNS }, (_, i) => users[i % users.length]), 8, async (user) => {
      const created = await api(url, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount: 10 } });
      const p = created.json.payment;
      await api(url, 'POST', `/sandbox/nowpayments/payments/${p.providerPaymentId}/status`, { body: { status: 'finished', ipn: false } });
      const remote = await api(url, 'GET', `/sandbox/nowpayments/v1/payment/${p.providerPaymentId}`, { headers: { 'x-api-key': 'sandbox-api-key' } });
      return { user, body: JSON.stringify(remote.json), sig: signIpn(remote.json), cents: Math.round(p.credits * 100) };
    });
    const ipns = ipnFixtures.map((r) => {
      if (!r.ok) throw r.error;
      return r.value;
    });

    const auth = { authorization: `Bearer ${me.token}` };
    const results = [];
    results.push(await drive('/healthz', { url: `${url}/healthz` }));
    results.push(await drive('GET /api/auth/me', { url: `${url}/api/auth/me`, headers: auth }));
    results.push(await drive('GET /api/payments/{id}/status', { url: `${url}/api/payments/${paymentId}/status`, headers: auth }));
    results.push(await drive('POST /api/ads/{id}/impression', { url: `${url}/api/ads/${adId}/impression`, method: 'POST' }));
    const loginBody = JSON.stringify({ username: me.username, password: PASSWORD, turnstileToken: 'ok' });
    const login = await drive('POST /api/login', { url: `${url}/api/login`, method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
    login.perCore = Math.round((login.rps / CORES) * 10) / 10;
    results.push(login);
    // IPNs: each of the prepared payments exactly once, as fast as the server takes them.
    let next = 0;
    const ipn = await drive('POST /api/payments/ipn (signed)', {
      url: `${url}/api/payments/ipn`,
      method: 'POST',
      amount: ipns.length,
      requests: [
        {
          setupRequest: (req) => {
            const item = ipns[next++ % ipns.length];
            return { ...req, headers: { ...req.headers, 'content-type': 'application/json', 'x-nowpayments-sig': item.sig }, body: item.body };
          },
        },
      ],
    });
    // Each IPN credited exactly once: every user's balance is the sum of their payments.
    const expected = new Map();
    for (const item of ipns) expected.set(item.user.userId, (expected.get(item.user.userId) ?? 0) + item.cents);
    let creditedOnce = true;
    for (const user of users) {
      const res = await api(url, 'GET', `/api/users/${user.userId}/credits`, { token: user.token });
      if (Math.round(res.json.credits * 100) !== (expected.get(user.userId) ?? 0)) creditedOnce = false;
    }
    ipn.creditedOnce = creditedOnce;
    results.push(ipn);
    for (const r of results) r.ratio = Math.round((r.rps / ceiling.rps) * 1000) / 1000;
    return results;
  } finally {
    await server.stop();
    rmSync(env.DATA_DIR, { recursive: true, force: true });
    await dropDatabase().catch(() => {});
  }
}

const started = Date.now();
const ceilingPort = await freePort();
const ceilingServer = await startProcess(['-e', CEILING_SOURCE], { PORT: String(ceilingPort) }, `http://127.0.0.1:${ceilingPort}/`);
const ceiling = await drive('bare node:http (ceiling)', { url: `http://127.0.0.1:${ceilingPort}/` });
ceiling.ratio = 1;
await ceilingServer.stop();

const passes = {};
for (const engine of ENGINES) {
  console.log(`\n${engine}: preparing fixtures and ${IPNS} finished payments...`);
  passes[engine] = await benchEngine(engine, ceiling);
}

const result = {
  at: new Date().toISOString(),
  machine: { cpus: CORES, cpuModel: os.cpus()[0]?.model ?? null, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` },
  settings: { connections: CONNECTIONS, durationSeconds: DURATION, ipns: IPNS, quick: QUICK, rateLimits: 'off', loadGenerator: 'autocannon (same process, one thread)' },
  ceiling,
  engines: passes,
  tookSeconds: Math.round((Date.now() - started) / 1000),
};
mkdirSync('bench/results', { recursive: true });
const file = path.join('bench/results', `${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

const pad = (s, n) => String(s).padEnd(n);
const padL = (s, n) => String(s).padStart(n);
console.log(`\nOlympus benchmark, ${CONNECTIONS} connections, ${DURATION} s per run, ${CORES} cores, Node ${process.version}`);
console.log(`${pad('', 10)}${pad('scenario', 34)}${padL('req/s', 8)}${padL('p50 ms', 8)}${padL('p99 ms', 8)}${padL('errors', 8)}${padL('non-2xx', 9)}${padL('x ceiling', 11)}`);
const line = (engine, r) =>
  console.log(`${pad(engine, 10)}${pad(r.name, 34)}${padL(r.rps, 8)}${padL(r.p50, 8)}${padL(r.p99, 8)}${padL(r.errors, 8)}${padL(r.non2xx, 9)}${padL(r.ratio.toFixed(3), 11)}`);
line('-', ceiling);
for (const [engine, rows] of Object.entries(passes)) for (const r of rows) line(engine, r);
for (const [engine, rows] of Object.entries(passes)) {
  const login = rows.find((r) => r.name === 'POST /api/login');
  const ipn = rows.find((r) => r.name.startsWith('POST /api/payments/ipn'));
  const me = rows.find((r) => r.name === 'GET /api/auth/me');
  console.log(`${engine}: logins/s per core ${login.perCore}; IPNs/s ${ipn.rps} (${ipn.requests} IPNs, each credited once: ${ipn.creditedOnce ? 'yes' : 'NO'}); /api/auth/me ${me.ratio >= 1 / 3 ? 'meets' : 'misses'} 1/3 of the ceiling, p99 ${me.p99} ms ${me.p99 < 25 ? '<' : '>='} 25 ms`);
}
console.log(`\nWrote ${file} (${result.tookSeconds} s)`);
