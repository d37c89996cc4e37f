// Two instances of the production build on one PostgreSQL database, under concurrent IPNs (each sent
// four times, to both), guest-reward claims (each sent four times, to both) and new deposits; then at
// least one minute of both instances' job schedulers. No double credit, no scheduled job run twice.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import {
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
  sandboxControl,
  secs,
  sleep,
  startServer,
} from './lib.mjs';

const PAYMENTS = flag('instances-payments', 'RELIABILITY_INSTANCES_PAYMENTS', 60);
const CLAIMS = flag('instances-claims', 'RELIABILITY_INSTANCES_CLAIMS', 12);
const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const CRON_JOBS = ['payments.reconcile', 'exchange.sync', 'status.check'];

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

/** A guest swaps, the swap sandbox finishes it; answers the claim the guest would hand over on sign-up. */
async function finishedGuestSwap(base) {
  const guest = await api(base, 'POST', '/api/guest');
  const headers = { 'guest-id': guest.json.guestId };
  const created = await api(base, 'POST', '/api/exchange/exchanges', {
    token: guest.json.token,
    headers,
    body: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS },
  });
  if (created.status !== 201) throw new Error(`exchange: ${created.status} ${created.text}`);
  const { exchange, rewards } = created.json.data;
  const moved = await sandboxControl(base, `/sandbox/swap/exchanges/${exchange.providerExchangeId}/status`, { status: 'finished' });
  if (moved.status !== 200) throw new Error(`swap sandbox: ${moved.status} ${moved.text}`);
  return { exchangeId: exchange._id, claimCode: rewards.claimCode };
}

test('two instances on one database: every credit once, every scheduled job once', { timeout: 300_000 }, async () => {
  const db = await createDatabase();
  cleanup.push(() => db.drop());
  const jwtSecret = randomBytes(32).toString('hex');
  const a = await startServer({ databaseUrl: db.url, port: await freePort(), jwtSecret, label: 'instance A' });
  cleanup.push(() => a.kill());
  const b = await startServer({ databaseUrl: db.url, port: await freePort(), jwtSecret, label: 'instance B' });
  cleanup.push(() => b.kill());
  const startedAt = Date.now();

  const users = [];
  for (let i = 0; i < 6; i++) users.push(await register(i % 2 ? b.url : a.url, 'twin'));
  const made = await pool(
    Array.from({ length: PAYMENTS }, (_, i) => i),
    6,
    (i) => finishedDeposit(i % 2 ? b.url : a.url, users[i % users.length]),
  );
  const deposits = made.map((r) => {
    if (!r.ok) throw r.error;
    return r.value;
  });
  const swaps = [];
  for (let i = 0; i < CLAIMS; i++) swaps.push(await finishedGuestSwap(i % 2 ? b.url : a.url));

  // Everything at once: 4 copies of every IPN and every claim, split across the instances, plus
  // fresh deposits on both.
  const work = [];
  for (const d of deposits)
    for (let k = 0; k < 4; k++) work.push(() => postIpn(k % 2 ? b.url : a.url, d.ipn).then((r) => ['ipn', r.status]));
  swaps.forEach((swap, i) => {
    const owner = users[i % users.length];
    for (let k = 0; k < 4; k++) {
      work.push(() =>
        api(k % 2 ? b.url : a.url, 'POST', '/api/exchange/claim-guest-rewards', {
          token: owner.token,
          body: { claims: [swap], userId: owner.userId },
        }).then((r) => ['claim', r.status]),
      );
    }
  });
  for (let k = 0; k < 20; k++) {
    work.push(() =>
      api(k % 2 ? b.url : a.url, 'POST', '/api/payments/deposit', {
        token: users[k % users.length].token,
        body: { crypto: 'eth', amount: 10 },
      }).then((r) => ['deposit', r.status]),
    );
  }
  work.sort(() => Math.random() - 0.5);
  const results = await pool(work, 24, (fn) => fn());
  const failures = results
    .filter((r) => !r.ok || ![200, 201].includes(r.value[1]))
    .map((r) => (r.ok ? r.value.join(' ') : String(r.error)));
  assert.deepEqual(failures, [], 'every concurrent call succeeded');

  // Both schedulers run for at least one full minute, so each cron tick has two candidates.
  const waitUntil = startedAt + 75_000;
  while (Date.now() < waitUntil) await sleep(1000);
  await sleep(5000);

  assert.deepEqual(
    await paymentViolations(
      db.pool,
      deposits.map((d) => ({ id: d.payment._id, creditsCents: d.creditsCents })),
    ),
    [],
  );
  assert.deepEqual(await ledgerViolations(db.pool), []);
  const rewards = await db.pool.query(`SELECT count(*)::int AS n FROM credit_ledger_entries WHERE kind = 'reward'`);
  assert.equal(rewards.rows[0].n, CLAIMS, 'each guest reward credited once');

  // pg-boss turns each cron tick into one "send-it" job per schedule (singleton per 60 s slot), which
  // then enqueues the real job. Each tick must appear once, and each real job once per tick.
  const ticks = await db.pool.query(
    `SELECT singleton_key AS name, singleton_on, count(*)::int AS n FROM pgboss.job
     WHERE name = '__pgboss__send-it' AND singleton_key = ANY($1) GROUP BY 1, 2`,
    [CRON_JOBS],
  );
  const runs = await db.pool.query(
    `SELECT name, count(*)::int AS n, count(*) FILTER (WHERE state = 'completed')::int AS completed FROM pgboss.job WHERE name = ANY($1) GROUP BY name`,
    [CRON_JOBS],
  );
  const tickCount = Object.fromEntries(CRON_JOBS.map((name) => [name, ticks.rows.filter((r) => r.name === name).length]));
  console.log(
    `# over ${secs(Date.now() - startedAt)}: cron ticks ${JSON.stringify(tickCount)}; jobs ${runs.rows.map((r) => `${r.name}=${r.n} (${r.completed} completed)`).join(', ')}`,
  );
  assert.deepEqual(
    ticks.rows.filter((r) => r.n > 1).map((r) => `${r.name} ${r.singleton_on} x${r.n}`),
    [],
    'no cron tick scheduled twice',
  );
  // exchange.sync is also sent on demand (a swap nudge), so only the pure cron jobs are counted against ticks.
  for (const row of runs.rows.filter((r) => r.name !== 'exchange.sync'))
    assert.ok(row.n <= tickCount[row.name], `${row.name}: ${row.n} jobs for ${tickCount[row.name]} ticks`);
  assert.ok(
    runs.rows.some((r) => r.completed >= 1),
    'at least one scheduled job ran while both instances were up',
  );
  await Promise.all([a.stop(), b.stop()]);
});
