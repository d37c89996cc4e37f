// Crash: kill -9 the server in the middle of a burst of 200 signed IPNs, restart it, let the
// reconciliation job run, and check every finished payment was credited exactly once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import {
  createDatabase,
  finishedDeposit,
  flag,
  freePort,
  ledgerViolations,
  paymentViolations,
  pool,
  postIpn,
  register,
  secs,
  sleep,
  startServer,
  unfinishedCount,
} from './lib.mjs';

const PAYMENTS = flag('crash-payments', 'RELIABILITY_CRASH_PAYMENTS', 200);
/** The reconciliation job runs every minute and checks up to 100 payments per pass. */
const RECONCILE_DEADLINE_MS = flag('reconcile-seconds', 'RELIABILITY_RECONCILE_SECONDS', 200) * 1000;

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

test(`kill -9 during ${PAYMENTS} IPNs: after restart and reconciliation every payment is credited once`, { timeout: 420_000 }, async () => {
  const db = await createDatabase();
  cleanup.push(() => db.drop());
  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  let server = await startServer({ databaseUrl: db.url, port, jwtSecret, label: 'first server' });
  cleanup.push(() => server.kill());

  // 20 users, 200 deposits finished at the provider; their IPNs are about to arrive.
  const users = [];
  for (let i = 0; i < Math.max(1, Math.ceil(PAYMENTS / 10)); i++) users.push(await register(server.url, 'crash'));
  const made = await pool(
    Array.from({ length: PAYMENTS }, (_, i) => users[i % users.length]),
    8,
    (user) => finishedDeposit(server.url, user),
  );
  const deposits = made.map((r) => {
    if (!r.ok) throw r.error;
    return r.value;
  });
  const expected = deposits.map((d) => ({ id: d.payment._id, creditsCents: d.creditsCents }));

  // The burst: 16 IPNs in flight at a time; the server dies once about half have been answered.
  let answered = 0;
  let killedAt = -1;
  const killAfter = Math.floor(PAYMENTS / 2);
  const burst = pool(deposits, 16, async (d) => {
    const res = await postIpn(server.url, d.ipn, 10_000);
    answered++;
    if (answered === killAfter && killedAt < 0) {
      killedAt = answered;
      server.child.kill('SIGKILL');
    }
    return res.status;
  });
  const results = await burst;
  await server.kill();
  const ok = results.filter((r) => r.ok && r.value === 200).length;
  const failed = results.filter((r) => !r.ok).length;
  const bad = results.filter((r) => r.ok && r.value !== 200).map((r) => r.value);
  assert.deepEqual(bad, [], 'IPNs answered before the crash are all 200');
  assert.ok(killedAt > 0, 'the server was killed mid-burst');
  const before = await unfinishedCount(
    db.pool,
    expected.map((e) => e.id),
  );
  console.log(`# burst: ${ok} IPNs answered 200, ${failed} cut off by kill -9; ${before} payments left unfinished`);
  assert.ok(before > 0, 'the crash left payments for reconciliation');

  // Restart; the providers' IPNs for the rest never come. Reconciliation must finish them.
  const restartedAt = Date.now();
  server = await startServer({ databaseUrl: db.url, port, jwtSecret, label: 'restarted server' });
  let left = before;
  while (left > 0 && Date.now() - restartedAt < RECONCILE_DEADLINE_MS) {
    await sleep(2000);
    left = await unfinishedCount(
      db.pool,
      expected.map((e) => e.id),
    );
  }
  console.log(`# reconciliation finished ${before - left} of ${before} payments in ${secs(Date.now() - restartedAt)} after restart`);
  assert.equal(left, 0, `${left} payments still unfinished after ${secs(RECONCILE_DEADLINE_MS)}`);

  // A late duplicate of every IPN (providers retry) changes nothing.
  const replays = await pool(deposits, 16, (d) => postIpn(server.url, d.ipn));
  assert.deepEqual(replays.filter((r) => !r.ok || r.value.status !== 200).length, 0, 'replayed IPNs answer 200');

  assert.deepEqual(await paymentViolations(db.pool, expected), []);
  assert.deepEqual(await ledgerViolations(db.pool), []);
  const total = await db.pool.query(
    `SELECT count(*)::int AS n, coalesce(sum(amount_cents), 0)::bigint AS cents FROM credit_ledger_entries`,
  );
  assert.equal(total.rows[0].n, PAYMENTS);
  assert.equal(
    Number(total.rows[0].cents),
    expected.reduce((s, e) => s + e.creditsCents, 0),
  );
  await server.stop();
});
