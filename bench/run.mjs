// `npm run bench [-- --quick] [-- --engines=postgres,pglite] [-- --connections=50] [-- --duration=10]
//   [-- --mixed=300] [-- --sessions=3000] [-- --payments=1000] [-- --ipns=1500] [-- --login] [-- --profile] [-- --only=ipn,rss]
//   [-- --mem] [-- --node-args="--heap-growing-percent=0"] [-- --fleet (bench/fleet.mjs)]`
//
// `npm run bench -- --scale` runs bench/scale.mjs instead: costs as the data grows (docs/performance.md#scale).
//
// Drives the production build (dist/server/server.js) with autocannon, first on PostgreSQL
// (BENCH_DATABASE_URL or TEST_DATABASE_URL; a throwaway database is created and dropped), then on the
// embedded database, with the settings `npm start` uses (request logging on, at `info`, to stdout) except
// rate limits (a load generator on one address would measure 429s). Real traffic, not one cached token:
// 3,000 sessions of 1,000 users asked round-robin, 1,000 payments of those users polled round-robin,
// impressions from a new anonymous viewer each, then the same with 20 approved paid campaigns in play
// (each viewer served first, as a browser does: `--campaigns=20 --viewers=N`), IPNs each sent once. Users, sessions and payments are
// written straight into the database before the server starts (thousands of argon2id registrations
// would take minutes); their tokens are signed here with the server's JWT secret.
//
// Every scenario is compared with a bare node:http server answering a fixed JSON body (the ceiling on
// this machine), measured in the same pass just before, driven the same way (same per-request setup in
// the load generator). Goals: docs/performance.md#goals. The many-sessions and many-payments scenarios warm up with
// one request per session or payment (each instance cache entry made once), then measure steady state.
// Next to req/s, the server's CPU time per request (from /proc; the embedded database runs inside the
// server process, PostgreSQL does not) is the figure to compare on a shared machine. `--profile` writes
// CPU profiles. Writes bench/results/<time>.json and prints a table.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { PASSWORD, api, pool, signIpn, sleep } from '../test/reliability/lib.mjs';
import { createUser, ensureBuilt, freePort, ROOT, startBuiltServer } from '../scripts/built-app.mjs';

process.chdir(ROOT);
const args = process.argv.slice(2);
// `--fleet`: several instances through PgBouncer against one (bench/fleet.mjs), instead of this bench.
if (args.includes('--fleet')) {
  await import('./fleet.mjs');
  process.exit(process.exitCode ?? 0);
}
// `--scale`: costs as data grows (bench/scale.mjs, docs/performance.md#scale), instead of this bench.
if (args.includes('--scale')) {
  await import('./scale.mjs');
  process.exit(0);
}
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const QUICK = args.includes('--quick');
const CONNECTIONS = Number(opt('connections', 50));
const DURATION = Number(opt('duration', QUICK ? 2 : 15));
const WARMUP = QUICK ? 1 : 2;
const MIXED = Number(opt('mixed', QUICK ? 5 : 300));
const SESSIONS = Number(opt('sessions', 3000));
const PAYMENTS = Number(opt('payments', 1000));
const USERS = Math.max(1, Math.ceil(SESSIONS / 3));
const IPNS = Number(opt('ipns', QUICK ? 100 : 1500));
const ADS = 10;
/** Paid campaigns in play in the campaign impressions scenario, and the viewers served before its impression-only run. */
const CAMPAIGNS = Number(opt('campaigns', 20));
const VIEWERS = Number(opt('viewers', QUICK ? 8000 : 60_000));
const LOGIN = args.includes('--login');
/** `--profile`: the server runs under `node --cpu-prof`, profiles in bench/results/profiles/ (open in Chrome DevTools). */
const PROFILE = args.includes('--profile');
/** `--only=ipn,rss`: just these scenarios (keys of GOALS), e.g. to profile one of them. */
const ONLY = opt('only', null)?.split(',') ?? null;
/**
 * `--mem`: the server runs with bench/mem-probe.mjs preloaded (bench only), which samples
 * process.memoryUsage(), V8's heap spaces and smaps_rollup each second; the RSS row then gets a breakdown
 * at the start and the end of the mixed traffic (where the resident memory is: V8 heap, external, native).
 */
const MEM = args.includes('--mem');
/** `--node-args="..."`: node options for the server process (space-separated), e.g. to compare a V8 setting with the entry's. */
const NODE_ARGS =
  args
    .find((a) => a.startsWith('--node-args='))
    ?.slice('--node-args='.length)
    .split(' ')
    .filter(Boolean) ?? [];
const wanted = (key) => !ONLY || ONLY.includes(key);
const DB_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const ENGINES = opt('engines', DB_URL ? 'postgres,pglite' : 'pglite').split(',');
const CORES = os.availableParallelism?.() ?? os.cpus().length;

/** The goals of docs/performance.md#goals: a ratio to the ceiling, a rate, or a memory bound. */
const GOALS = {
  healthz: { ratio: 0.5, text: '>= 0.5 x' },
  meOne: { ratio: 0.5, text: '>= 0.5 x' },
  meMany: { ratio: 1 / 3, p99: 25, text: '>= 0.33 x, p99 < 25 ms' },
  status: { ratio: 1 / 3, text: '>= 0.33 x' },
  impressions: { rps: 10_000, text: '>= 10,000/s' },
  /** Impressions of served paid campaigns (charged, capped, paced): within 10% of the plain impressions figure. */
  campaignImpressions: { relative: 'impressions', share: 0.9, text: '>= 0.9 x impressions' },
  ipn: { rps: 1000, text: '>= 1,000/s' },
  rss: { mib: 300, text: '< 300 MB, flat' },
};

if (!(await ensureBuilt({ parts: ['server'] }))) process.exit(1);
const { openDatabase } = await import(pathToFileURL(path.join(ROOT, 'dist/server/db/client.js')).href);

const CEILING_SOURCE = `
const body = JSON.stringify({ status: 'ok' });
require('node:http').createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');`;

/**
 * One autocannon run; answers req/s, latency percentiles and error counts. Timed runs start with a
 * discarded warm-up, so neither the load generator's nor the server's JIT compiler is measured.
 */
async function drive(name, options, pid, warmupAmount = 0) {
  // Warm-up: a fixed time, or one request per session/payment (every cache entry made once: steady state).
  if (warmupAmount) await measure({ ...options, amount: warmupAmount });
  else if (!options.amount) await measure({ ...options, duration: WARMUP });
  const before = cpuMs(pid);
  const result = await measure(options);
  const used = cpuMs(pid) - before;
  // Server CPU time per request: the work each request costs, much steadier than req/s on a shared machine.
  const cpuUsPerRequest = pid && result.requests ? Math.round((used * 1000) / result.requests) : null;
  return { name, ...result, cpuUsPerRequest };
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid) {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

function measure(options) {
  return new Promise((resolve, reject) => {
    // A fixed `amount` of requests (the IPNs) runs until they are all answered, not for a duration.
    const settings = { connections: CONNECTIONS, timeout: 10, ...(options.amount ? {} : { duration: DURATION }), ...options };
    const startedAt = performance.now();
    let lastResponseAt = startedAt;
    const instance = autocannon(settings, (err, result) => {
      if (err) return reject(err);
      // A fixed amount is timed here, from the start to its last response: autocannon reports its
      // duration in whole seconds and notices the end only at its next one-second tick, which made a
      // run of 4,000 requests in 1.1 s read as 2,000/s.
      const seconds = options.amount ? (lastResponseAt - startedAt) / 1000 : (result.duration ?? DURATION) || DURATION;
      resolve({
        requests: result.requests.total,
        rps: Math.round(options.amount ? result.requests.total / seconds : result.requests.average),
        ok2xx: result['2xx'],
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        seconds: Math.round(seconds * 10) / 10,
      });
    });
    if (options.amount) instance.on('response', () => (lastResponseAt = performance.now()));
  });
}

/** Round-robin over `items`: each request gets the next one (the load generator's cost is the same for the ceiling). */
function roundRobin(items, build) {
  let next = 0;
  return [{ setupRequest: (req) => ({ ...req, ...build(items[next++ % items.length], next) }) }];
}

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An HS256 session token exactly as the server signs them (src/server/modules/auth/tokens.ts). */
function signToken(secret, claims) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/**
 * Users, sessions and payments written straight into the database (the schema is there: the CLI that
 * made the admin account ran the migrations). Answers [{ userId, sessionId, token }] and the payments.
 */
async function seed(env) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 2 });
  try {
    const q = (text, values) => database.pool.query(text, values);
    const tag = randomBytes(3).toString('hex');
    const users = await q(
      `INSERT INTO users (username, email, password_hash, referral_code)
       SELECT 'bench' || $1 || i, 'bench' || $1 || i || '@example.com', 'not-a-hash', 'B' || $1 || i FROM generate_series(1, $2::int) AS i
       RETURNING id`,
      [tag, USERS],
    );
    const userIds = users.rows.map((r) => r.id);
    const sessions = await q(
      `INSERT INTO sessions (user_id, expires_at)
       SELECT u, now() + interval '1 day' FROM unnest($1::uuid[]) AS u, generate_series(1, 3)
       RETURNING id, user_id`,
      [userIds],
    );
    const now = Math.floor(Date.now() / 1000);
    const secret = Buffer.from(env.JWT_SECRET);
    const tokens = sessions.rows.slice(0, SESSIONS).map((r) => ({
      userId: r.user_id,
      sessionId: r.id,
      token: signToken(secret, { sid: r.id, isGuest: false, role: 'user', sub: r.user_id, iat: now, exp: now + 86_400 }),
    }));
    const payments = await q(
      `INSERT INTO payments (user_id, provider_payment_id, status, price_amount_cents, pay_currency, fee_percent, fee_cents, credits_cents, expires_at)
       SELECT u.id, 'bench-' || $1 || '-' || row_number() OVER (), 'waiting', 2000, 'btc', 5, 100, 1900, now() + interval '1 day'
       FROM (SELECT unnest($2::uuid[]) AS id) u, generate_series(1, $3::int)
       LIMIT $4
       RETURNING id, user_id`,
      [tag, userIds, Math.ceil(PAYMENTS / userIds.length), PAYMENTS],
    );
    const tokenOf = new Map(tokens.map((t) => [t.userId, t.token]));
    return { tokens, payments: payments.rows.map((r) => ({ id: r.id, token: tokenOf.get(r.user_id) })) };
  } finally {
    await database.close();
  }
}

/** The bare node:http server, started once per pass and driven before each scenario. */
async function startCeiling() {
  const server = await startBuiltServer({ program: ['-e', CEILING_SOURCE], captureOutput: 'stderr', label: 'the ceiling server' });
  return {
    run: (name, requestsFor, warmupAmount) => drive(name, { url: `${server.url}/`, ...requestsFor(server.url) }, server.pid, warmupAmount),
    stop: () => server.stop(),
  };
}

async function benchEngine(engine) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let dropDatabase = async () => {};
  const env = {
    NODE_ENV: 'production',
    ALLOW_SANDBOX: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
    // The default of `npm start` (info: one line per request), written to stdout, which is /dev/null here.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // Rate limits would answer 429 to a load generator on one address; they are measured off.
    RATE_LIMITS: '0',
    // The bench's admins sign in with a password alone (staff two-factor is on by default).
    REQUIRE_STAFF_2FA: '0',
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
  let server = null;
  const ceilingServer = await startCeiling();
  try {
    // Two admins, made with the CLI (which migrates) before the server holds the database: one creates
    // the ads, moves the sandbox payments and funds the campaigns; the other approves those fundings
    // (1000 credits or more wait for a second admin).
    const adminName = `benchadmin${randomBytes(3).toString('hex')}`;
    const approverName = `benchapprover${randomBytes(3).toString('hex')}`;
    await createUser({ env }, { username: adminName, password: PASSWORD, role: 'admin' });
    await createUser({ env }, { username: approverName, password: PASSWORD, role: 'admin' });
    const seedStarted = Date.now();
    const { tokens, payments } = await seed(env);
    console.log(`  seeded ${USERS} users, ${tokens.length} sessions, ${payments.length} payments in ${Date.now() - seedStarted} ms`);
    const profileArgs = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/results/profiles', engine)}`] : [];
    const memFile = MEM ? path.join(env.DATA_DIR, 'mem-probe.jsonl') : null;
    const memArgs = MEM ? ['--import', pathToFileURL(path.join(ROOT, 'bench/mem-probe.mjs')).href] : [];
    server = await startBuiltServer({
      port,
      dataDir: env.DATA_DIR,
      nodeArgs: [...NODE_ARGS, ...profileArgs, ...memArgs],
      env: memFile ? { ...env, MEM_PROBE_FILE: memFile } : env,
      // Its stdout is the request log: to /dev/null.
      captureOutput: 'stderr',
      label: `the server (${engine})`,
    });

    const signIn = async (username) => {
      const res = await api(url, 'POST', '/api/login', { body: { username, password: PASSWORD, turnstileToken: 'ok' } });
      if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${res.text}`);
      return res;
    };
    const adminLogin = await signIn(adminName);
    const adIds = [];
    for (let i = 0; i < ADS; i++) {
      const ad = await api(url, 'POST', '/api/staff/ads', {
        token: adminLogin.json.token,
        body: { placement: 'home-banner', title: `Bench ad ${i}`, targetUrl: 'https://example.com/' },
      });
      adIds.push(ad.json.ad._id);
    }
    // IPNs: deposits of many users, finished at the sandbox provider without sending their IPN.
    const ipnStarted = Date.now();
    const depositors = tokens.filter((_, i) => i % 3 === 0);
    const ipnFixtures = await pool(
      Array.from({ length: IPNS }, (_, i) => depositors[i % depositors.length]),
      8,
      async (user) => {
        const created = await api(url, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount: 10 } });
        if (created.status !== 201) throw new Error(`deposit: ${created.status} ${created.text}`);
        const p = created.json.payment;
        // A sandbox control: staff only in production.
        const moved = await api(url, 'POST', `/sandbox/nowpayments/payments/${p.providerPaymentId}/status`, {
          token: adminLogin.json.token,
          body: { status: 'finished', ipn: false },
        });
        if (moved.status !== 200) throw new Error(`sandbox: ${moved.status} ${moved.text}`);
        const remote = await api(url, 'GET', `/sandbox/nowpayments/v1/payment/${p.providerPaymentId}`, {
          headers: { 'x-api-key': 'sandbox-api-key' },
        });
        return { user, body: JSON.stringify(remote.json), sig: signIpn(remote.json), cents: Math.round(p.credits * 100) };
      },
    );
    const ipns = ipnFixtures.map((r) => {
      if (!r.ok) throw r.error;
      return r.value;
    });
    console.log(`  prepared ${ipns.length} finished deposits in ${Date.now() - ipnStarted} ms`);

    const rows = [];
    // --quick measures the ceiling once per pass (the first scenario's) to stay under two minutes.
    let quickCeiling = null;
    const pair = async (key, name, ceilingRequests, serverOptions, warmupAmount = 0) => {
      if (!wanted(key)) return {};
      const ceiling = (QUICK && quickCeiling) || (await ceilingServer.run(`ceiling for ${name}`, ceilingRequests, warmupAmount));
      if (QUICK) quickCeiling = ceiling;
      const measured = await drive(name, serverOptions, server.pid, warmupAmount);
      measured.ceiling = ceiling.rps;
      measured.ceilingCpuUsPerRequest = ceiling.cpuUsPerRequest;
      measured.ratio = Math.round((measured.rps / ceiling.rps) * 1000) / 1000;
      measured.key = key;
      rows.push(measured);
      console.log(
        `  ${name}: ${measured.rps}/s, ${measured.ratio} x ceiling (${ceiling.rps}/s), p99 ${measured.p99} ms, non-2xx ${measured.non2xx}, errors ${measured.errors}, server CPU ${measured.cpuUsPerRequest} us/request (ceiling ${ceiling.cpuUsPerRequest})`,
      );
      return measured;
    };
    const withTokens = (list) => roundRobin(list, (t) => ({ headers: { authorization: `Bearer ${t.token}` } }));
    const plain = () => ({});
    await pair('healthz', 'GET /healthz', plain, { url: `${url}/healthz` });
    await pair('meOne', 'GET /api/auth/me, one token', () => ({ headers: { authorization: `Bearer ${tokens[0].token}` } }), {
      url: `${url}/api/auth/me`,
      headers: { authorization: `Bearer ${tokens[0].token}` },
    });
    await pair(
      'meMany',
      `GET /api/auth/me, ${tokens.length} sessions`,
      () => ({ requests: withTokens(tokens) }),
      { url: `${url}/api/auth/me`, requests: withTokens(tokens) },
      tokens.length,
    );
    const statusRequests = (base) =>
      roundRobin(payments, (p) => ({ path: base ? `/api/payments/${p.id}/status` : '/', headers: { authorization: `Bearer ${p.token}` } }));
    await pair(
      'status',
      `GET /api/payments/{id}/status, ${payments.length} payments`,
      () => ({ requests: statusRequests(false) }),
      {
        url,
        requests: statusRequests(true),
      },
      payments.length,
    );
    // Impressions: a new anonymous viewer (user agent) for each, over the ads: every one is counted.
    const before = await countImpressions(env);
    const impressionRequests = (toServer) => {
      let n = 0;
      const id = randomBytes(3).toString('hex');
      return [
        {
          setupRequest: (req) => {
            n++;
            return {
              ...req,
              method: 'POST',
              path: toServer ? `/api/ads/${adIds[n % adIds.length]}/impression` : '/',
              headers: { 'user-agent': `bench-${id}-${n}` },
            };
          },
        },
      ];
    };
    const impressions = await pair(
      'impressions',
      'POST /api/ads/{id}/impression, new viewers',
      () => ({ requests: impressionRequests(false) }),
      {
        url,
        requests: impressionRequests(true),
      },
    );
    await sleep(1500); // Batched impressions reach the table within a second.
    if (before !== null) impressions.counted = (await countImpressions(env)) - before;

    // Campaign impressions: CAMPAIGNS approved paid campaigns on the home banner (half with a daily
    // budget, paced; half with a frequency cap), each owned by a funded user. An impression of a
    // campaign creative counts only after it was served to that viewer, so a browser's two requests:
    // GET /api/ads (the serve: eligibility, pacing and cap checks, the served record) then the
    // impression (gate, cap, charge in the batch). Measured two ways, next to the plain figure:
    // (1) the browser's flow, serve then impression per new viewer; (2) the impressions alone, of
    // VIEWERS viewers served just before (the figure comparable with the plain impressions).
    if (wanted('campaignImpressions')) {
      const adminToken = adminLogin.json.token;
      const approverToken = (await signIn(approverName)).json.token;
      const owners = [...new Map(tokens.map((t) => [t.userId, t])).values()].slice(0, CAMPAIGNS);
      const creativeIds = [];
      for (const [i, owner] of owners.entries()) {
        const funded = await api(url, 'POST', '/api/admin/credits/adjustments', {
          token: adminToken,
          body: { userId: owner.userId, amount: 100_000, reason: 'bench campaign budget' },
        });
        if (funded.status !== 202) throw new Error(`fund: ${funded.status} ${funded.text}`);
        const approved = await api(url, 'POST', `/api/admin/credits/adjustment-requests/${funded.json.request._id}/approve`, {
          token: approverToken,
          body: {},
        });
        if (approved.status !== 200) throw new Error(`approve funding: ${approved.status} ${approved.text}`);
        const created = await api(url, 'POST', '/api/ad-campaigns', {
          token: owner.token,
          body: {
            requestId: randomUUID(),
            name: `Bench campaign ${i}`,
            placements: ['home-banner'],
            startsAt: new Date(Date.now() - 3_600_000).toISOString(),
            endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
            priceModel: 'cpm',
            priceCents: 200,
            budgetCents: 10_000_000,
            dailyBudgetCents: i % 2 === 0 ? 10_000_000 : null,
            frequencyCap: i % 2 === 1 ? 3 : null,
            creatives: [{ title: `Bench creative ${i}`, targetUrl: 'https://example.com/' }],
          },
        });
        if (created.status !== 201) throw new Error(`campaign: ${created.status} ${created.text}`);
        creativeIds.push(created.json.campaign.creatives[0]._id);
      }
      for (const id of creativeIds) {
        const approved = await api(url, 'POST', `/api/staff/ad-reviews/${id}/approve`, { token: adminToken });
        if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
      }
      const spendBefore = await campaignSpend(env);
      // (1) The browser's flow: each connection serves a new viewer, then posts that viewer's impression.
      const flowId = randomBytes(3).toString('hex');
      let v = 0;
      const flowRequests = (toServer) => [
        {
          setupRequest: (req, context) => {
            context.ua = `camp-${flowId}-${v++}`;
            return {
              ...req,
              method: 'GET',
              path: toServer ? '/api/ads?placement=home-banner' : '/',
              headers: { 'user-agent': context.ua },
            };
          },
          onResponse: (status, body, context) => {
            context.adId = toServer && status === 200 ? JSON.parse(body).ad?._id : 'none';
          },
        },
        {
          setupRequest: (req, context) => ({
            ...req,
            method: 'POST',
            path: toServer ? `/api/ads/${context.adId ?? 'none'}/impression` : '/',
            headers: { 'user-agent': context.ua },
          }),
        },
      ];
      const flow = await pair(
        'campaignFlow',
        `GET /api/ads + impression, ${CAMPAIGNS} campaigns`,
        () => ({ requests: flowRequests(false) }),
        { url, requests: flowRequests(true) },
      );
      flow.viewersPerSecond = Math.round(flow.rps / 2);

      // (2) VIEWERS new viewers served (timed: the serve figure), then each one's impression (timed: the campaign impression figure).
      const served = [];
      const serveId = randomBytes(3).toString('hex');
      let sv = 0;
      const serve = await drive(
        `GET /api/ads, ${CAMPAIGNS} campaigns (${VIEWERS} viewers)`,
        {
          url,
          amount: VIEWERS,
          requests: [
            {
              setupRequest: (req, context) => {
                context.ua = `served-${serveId}-${sv++}`;
                return { ...req, method: 'GET', path: '/api/ads?placement=home-banner', headers: { 'user-agent': context.ua } };
              },
              onResponse: (status, body, context) => {
                const id = status === 200 ? JSON.parse(body).ad?._id : null;
                if (id) served.push({ ua: context.ua, adId: id });
              },
            },
          ],
        },
        server.child.pid,
      );
      serve.key = 'campaignServe';
      rows.push(serve);
      console.log(
        `  ${serve.name}: ${serve.rps}/s, p99 ${serve.p99} ms, non-2xx ${serve.non2xx}, server CPU ${serve.cpuUsPerRequest} us/request`,
      );
      let iv = 0;
      const campaignImpressions = await drive(
        `POST impression of a served campaign ad (${served.length})`,
        {
          url,
          amount: served.length,
          requests: [
            {
              setupRequest: (req) => {
                const item = served[iv++ % served.length];
                return { ...req, method: 'POST', path: `/api/ads/${item.adId}/impression`, headers: { 'user-agent': item.ua } };
              },
            },
          ],
        },
        server.child.pid,
      );
      campaignImpressions.key = 'campaignImpressions';
      await sleep(1500);
      const spent = await campaignSpend(env);
      // The plain impressions again, right after: the machine's speed drifts between runs a minute apart
      // (the ceiling moved by a third within one pass here), and the database has grown by the campaign
      // runs' rows. The campaign figure is compared with the mean of the plain figures before and after it.
      const impressionsAfter = impressions.rps
        ? await drive(
            'POST /api/ads/{id}/impression, new viewers, again after',
            { url, requests: impressionRequests(true) },
            server.child.pid,
          )
        : null;
      if (impressionsAfter) {
        impressionsAfter.key = 'impressionsAfter';
        rows.push(impressionsAfter);
        console.log(
          `  ${impressionsAfter.name}: ${impressionsAfter.rps}/s, p99 ${impressionsAfter.p99} ms, non-2xx ${impressionsAfter.non2xx}, server CPU ${impressionsAfter.cpuUsPerRequest} us/request`,
        );
      }
      const plainMean = impressions.rps
        ? impressionsAfter
          ? Math.round((impressions.rps + impressionsAfter.rps) / 2)
          : impressions.rps
        : null;
      campaignImpressions.relativeTo = plainMean;
      campaignImpressions.ratioToPlain = plainMean ? Math.round((campaignImpressions.rps / plainMean) * 1000) / 1000 : null;
      campaignImpressions.ratioToPlainBefore = impressions.rps
        ? Math.round((campaignImpressions.rps / impressions.rps) * 1000) / 1000
        : null;
      if (spent !== null) {
        campaignImpressions.charged = spent.viewable - spendBefore.viewable;
        campaignImpressions.unbalanced = spent.unbalanced;
      }
      rows.splice(rows.length - (impressionsAfter ? 1 : 0), 0, campaignImpressions);
      console.log(
        `  ${campaignImpressions.name}: ${campaignImpressions.rps}/s, ${campaignImpressions.ratioToPlain} x plain impressions (mean ${plainMean}/s; ${campaignImpressions.ratioToPlainBefore} x the run before alone), p99 ${campaignImpressions.p99} ms, non-2xx ${campaignImpressions.non2xx}, server CPU ${campaignImpressions.cpuUsPerRequest} us/request (plain ${impressions.cpuUsPerRequest})${spent ? `, ${campaignImpressions.charged} charged over both runs, campaigns whose spend + rest is not their budget: ${spent.unbalanced}` : ''}`,
      );
    }

    // IPNs: each of the prepared payments exactly once, as fast as the server takes them.
    if (wanted('ipn')) {
      let next = 0;
      const ipn = await drive(
        'POST /api/payments/ipn (signed, each once)',
        {
          url: `${url}/api/payments/ipn`,
          method: 'POST',
          amount: ipns.length,
          requests: [
            {
              setupRequest: (req) => {
                const item = ipns[next++ % ipns.length];
                return {
                  ...req,
                  headers: { ...req.headers, 'content-type': 'application/json', 'x-nowpayments-sig': item.sig },
                  body: item.body,
                };
              },
            },
          ],
        },
        server.child.pid,
      );
      ipn.key = 'ipn';
      // Each IPN credited exactly once: every depositor's balance is the sum of their payments.
      const expected = new Map();
      for (const item of ipns) expected.set(item.user.userId, (expected.get(item.user.userId) ?? 0) + item.cents);
      let creditedOnce = true;
      await pool([...expected.keys()], 8, async (userId) => {
        const token = tokens.find((t) => t.userId === userId).token;
        const res = await api(url, 'GET', `/api/users/${userId}/credits`, { token });
        if (Math.round(res.json.credits * 100) !== expected.get(userId)) creditedOnce = false;
      });
      ipn.creditedOnce = creditedOnce;
      rows.push(ipn);
      console.log(`  IPNs: ${ipn.rps}/s, each credited once: ${creditedOnce ? 'yes' : 'NO'}`);
    }

    if (LOGIN) {
      const loginBody = JSON.stringify({ username: adminName, password: PASSWORD, turnstileToken: 'ok' });
      const login = await drive('POST /api/login', {
        url: `${url}/api/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: loginBody,
      });
      login.perCore = Math.round((login.rps / CORES) * 10) / 10;
      login.key = 'login';
      rows.push(login);
    }

    if (!wanted('rss')) return rows;
    // Mixed traffic: sessions, status polls and impressions interleaved; RSS sampled every second.
    let m = 0;
    const mixId = randomBytes(3).toString('hex');
    const samples = [];
    const mixedStarted = Date.now();
    const mixedCpuBefore = cpuMs(server.child.pid);
    const sampler = setInterval(() => samples.push(server.rssMiB()), 1000);
    const mixed = await measure({
      url,
      duration: MIXED,
      requests: [
        {
          setupRequest: (req) => {
            m++;
            if (m % 3 === 0)
              return {
                ...req,
                method: 'POST',
                path: `/api/ads/${adIds[m % adIds.length]}/impression`,
                headers: { 'user-agent': `mix-${mixId}-${m}` },
              };
            if (m % 3 === 1)
              return {
                ...req,
                method: 'GET',
                path: '/api/auth/me',
                headers: { authorization: `Bearer ${tokens[m % tokens.length].token}` },
              };
            const p = payments[m % payments.length];
            return { ...req, method: 'GET', path: `/api/payments/${p.id}/status`, headers: { authorization: `Bearer ${p.token}` } };
          },
        },
      ],
    });
    clearInterval(sampler);
    const mixedCpuMs = cpuMs(server.child.pid) - mixedCpuBefore;
    const valid = samples.filter((s) => s !== null);
    const half = Math.floor(valid.length / 2);
    rows.push({
      key: 'rss',
      name: `peak RSS, ${MIXED} s of mixed traffic`,
      peakMiB: Math.max(...valid),
      firstHalfPeakMiB: Math.max(...valid.slice(0, Math.max(1, half))),
      secondHalfPeakMiB: Math.max(...valid.slice(half)),
      endMiB: valid.at(-1),
      mixedRps: mixed.rps,
      mixedP99: mixed.p99,
      mixedNon2xx: mixed.non2xx,
      mixedErrors: mixed.errors,
      // Server CPU per request of the mixed traffic: what a different garbage-collection schedule costs.
      mixedCpuUsPerRequest: mixed.requests ? Math.round((mixedCpuMs * 1000) / mixed.requests) : null,
      ...(memFile ? { memory: memoryBreakdown(memFile, mixedStarted) } : {}),
    });
    if (memFile) {
      const { atStart, atEnd, peak } = rows.at(-1).memory;
      const show = (m) =>
        m &&
        `rss ${m.rssMiB}, heap ${m.heapUsedMiB} used / ${m.heapTotalMiB} total (new ${m.spaces.new}, old ${m.spaces.old}, code ${m.spaces.code}, large ${m.spaces.large_object}), external ${m.externalMiB} (array buffers ${m.arrayBuffersMiB}), anonymous ${m.anonMiB}, file-backed ${m.fileMiB} MB`;
      console.log(`  memory at the start of the mixed traffic: ${show(atStart)}`);
      console.log(`  memory at its end:                        ${show(atEnd)}`);
      console.log(`  memory at its peak RSS:                   ${show(peak)}`);
      console.log(`  lowest heap used (live data) in each half: ${rows.at(-1).memory.heapUsedLowMiB.join(' / ')} MB`);
    }
    return rows;
  } finally {
    await ceilingServer.stop();
    await server?.stop();
    rmSync(env.DATA_DIR, { recursive: true, force: true });
    await dropDatabase().catch(() => {});
  }
}

/** The probe's samples (bench/mem-probe.mjs): the first after `since`, the last, and the one with the highest RSS. */
function memoryBreakdown(file, since) {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
  const during = lines.filter((l) => l.t >= since);
  const half = Math.floor(during.length / 2);
  // The lowest heapUsed of a half is about what its full collections kept alive: live data, not garbage.
  const low = (list) => (list.length ? Math.min(...list.map((l) => l.heapUsedMiB)) : null);
  return {
    atStart: during[0] ?? null,
    atEnd: during.at(-1) ?? null,
    peak: during.reduce((a, b) => (!a || b.rssMiB > a.rssMiB ? b : a), null),
    heapUsedLowMiB: [low(during.slice(0, half)), low(during.slice(half))],
    samples: during.length,
  };
}

/**
 * Viewable (charged) campaign impressions so far, and how many campaigns spent more than their budget
 * (must be 0), read while the server runs (PostgreSQL only; null on the embedded database).
 */
async function campaignSpend(env) {
  if (!env.DATABASE_URL) return null;
  const c = new pg.Client({ connectionString: env.DATABASE_URL });
  await c.connect();
  try {
    const viewable = Number((await c.query('SELECT coalesce(sum(viewable), 0)::bigint AS n FROM ad_campaign_days')).rows[0].n);
    const unbalanced = Number(
      (
        await c.query(`SELECT count(*)::int AS n FROM ad_campaigns c
          WHERE c.budget_cents IS NOT NULL AND (SELECT coalesce(sum(spend_millicents), 0) FROM ad_campaign_days d WHERE d.campaign_id = c.id) + c.remaining_millicents <> c.budget_cents * 1000`)
      ).rows[0].n,
    );
    return { viewable, unbalanced };
  } finally {
    await c.end();
  }
}

/** Counted impressions, read while the server runs (PostgreSQL directly; the embedded one through its staff stats is not worth it: null). */
async function countImpressions(env) {
  if (!env.DATABASE_URL) return null;
  const c = new pg.Client({ connectionString: env.DATABASE_URL });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*)::int AS n FROM ad_impressions')).rows[0].n);
  } finally {
    await c.end();
  }
}

function verdict(row) {
  const goal = GOALS[row.key];
  if (!goal) return '';
  if (row.key === 'rss') return row.peakMiB < goal.mib && row.secondHalfPeakMiB <= row.firstHalfPeakMiB * 1.1 ? 'met' : 'MISSED';
  if (goal.relative) return row.ratioToPlain != null && row.ratioToPlain >= goal.share ? 'met' : 'MISSED';
  if (goal.rps) return row.rps >= goal.rps && (row.key !== 'ipn' || row.creditedOnce) ? 'met' : 'MISSED';
  return row.ratio >= goal.ratio && (!goal.p99 || row.p99 < goal.p99) ? 'met' : 'MISSED';
}

const started = Date.now();
const passes = {};
for (const engine of ENGINES) {
  console.log(`\n${engine}: seeding and preparing ${IPNS} finished payments...`);
  passes[engine] = await benchEngine(engine);
}

const result = {
  at: new Date().toISOString(),
  machine: {
    cpus: CORES,
    cpuModel: os.cpus()[0]?.model ?? null,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  },
  settings: {
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    mixedSeconds: MIXED,
    sessions: SESSIONS,
    users: USERS,
    payments: PAYMENTS,
    ipns: IPNS,
    quick: QUICK,
    rateLimits: 'off',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    loadGenerator: 'autocannon (same process, one thread)',
  },
  goals: GOALS,
  engines: Object.fromEntries(Object.entries(passes).map(([engine, rows]) => [engine, rows.map((r) => ({ ...r, verdict: verdict(r) }))])),
  tookSeconds: Math.round((Date.now() - started) / 1000),
};
mkdirSync('bench/results', { recursive: true });
const file = path.join('bench/results', `${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

const pad = (s, n) => String(s).padEnd(n);
const padL = (s, n) => String(s).padStart(n);
console.log(
  `\nOlympus benchmark, ${CONNECTIONS} connections, ${DURATION} s per run, ${CORES} cores, Node ${process.version}, request log at ${result.settings.logLevel}`,
);
console.log(
  `${pad('', 9)}${pad('scenario', 46)}${padL('req/s', 8)}${padL('ceiling', 9)}${padL('x ceil', 8)}${padL('p99 ms', 8)}${padL('non-2xx', 9)}${padL('us CPU/req', 12)}  ${pad('goal', 24)}verdict`,
);
for (const [engine, rows] of Object.entries(result.engines)) {
  for (const r of rows) {
    if (r.key === 'rss') {
      console.log(
        `${pad(engine, 9)}${pad(r.name, 46)}${padL(`${r.peakMiB} MB`, 8)}${padL('', 9)}${padL('', 8)}${padL('', 8)}${padL('', 9)}${padL('', 12)}  ${pad(GOALS.rss.text, 24)}${r.verdict} (halves ${r.firstHalfPeakMiB} / ${r.secondHalfPeakMiB} MB, ${r.mixedRps} req/s, non-2xx ${r.mixedNon2xx}, server CPU ${r.mixedCpuUsPerRequest} us/request)`,
      );
      continue;
    }
    if (r.key === 'campaignImpressions') {
      console.log(
        `${pad(engine, 9)}${pad(r.name, 46)}${padL(r.rps, 8)}${padL(r.relativeTo ?? '', 9)}${padL(r.ratioToPlain?.toFixed(3) ?? '', 8)}${padL(r.p99, 8)}${padL(r.non2xx, 9)}${padL(r.cpuUsPerRequest ?? '', 12)}  ${pad(GOALS[r.key].text, 24)}${r.verdict} (ratio to the mean of plain impressions before and after; ${r.ratioToPlainBefore} x before alone${r.charged != null ? `; ${r.charged} charged, unbalanced campaigns ${r.unbalanced}` : ''})`,
      );
      continue;
    }
    const extra =
      r.key === 'campaignFlow'
        ? ` (${r.viewersPerSecond} viewers/s: serve + impression each)`
        : r.key === 'ipn'
          ? ` (credited once: ${r.creditedOnce ? 'yes' : 'NO'})`
          : r.key === 'impressions' && r.counted != null
            ? ` (${r.counted} counted)`
            : r.key === 'login'
              ? ` (${r.perCore}/s per core)`
              : '';
    console.log(
      `${pad(engine, 9)}${pad(r.name, 46)}${padL(r.rps, 8)}${padL(r.ceiling ?? '', 9)}${padL(r.ratio?.toFixed(3) ?? '', 8)}${padL(r.p99, 8)}${padL(r.non2xx, 9)}${padL(r.cpuUsPerRequest == null ? '' : r.ceilingCpuUsPerRequest ? `${r.cpuUsPerRequest}/${r.ceilingCpuUsPerRequest}` : r.cpuUsPerRequest, 12)}  ${pad(GOALS[r.key]?.text ?? '', 24)}${r.verdict}${extra}`,
    );
  }
}
console.log(`\nWrote ${file} (${result.tookSeconds} s)`);
