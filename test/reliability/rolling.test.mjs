// A rolling upgrade (docs/decisions/0307-rolling-upgrades-expand-and-contract.md): the release in
// production (src/server/db/migrations/releases.json), built from its commit, serves a PostgreSQL
// database on its own migrations; under traffic (sign-ups, sign-ins, sandbox deposits and their IPNs,
// balance reads, tickets) this build starts on the same database and applies its newer migrations; both
// serve behind a round-robin "balancer"; the old one is taken out and stopped. Not one request may fail
// (a 5xx, a refused connection, or any answer but the one expected), no request may wait on a lock the
// migration holds for as long as the request lock timeout, and the ledger must be exact.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { ROOT } from '../../scripts/built-app.mjs';
import {
  api,
  appliedMigrationCount,
  createDatabase,
  ledgerViolations,
  PASSWORD,
  paymentViolations,
  postIpn,
  previousRelease,
  sandboxControl,
  secs,
  startServer,
} from './lib.mjs';

/** The request lock timeout (DATABASE_LOCK_TIMEOUT_MS, default 5000): a request waits this long for a lock, then fails. */
const LOCK_TIMEOUT_MS = 5_000;
const WORKERS = 4;

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

const journalLength = (root) =>
  JSON.parse(readFileSync(path.join(root, 'src/server/db/migrations/meta/_journal.json'), 'utf8')).entries.length;

test(
  'rolling upgrade: the previous release and this one on one database under traffic while the migrations apply, no failed request',
  { timeout: 240_000 },
  async () => {
    const startedAt = Date.now();
    const release = await previousRelease();
    console.log(`# previous release ${release.name} (${release.commit.slice(0, 7)}) ready in ${secs(Date.now() - startedAt)}`);

    // The database as production has it: migrated by the previous release's operator command (its admin).
    const db = await createDatabase('olympus_roll', { root: release.root });
    cleanup.push(() => db.drop());
    assert.equal(
      await appliedMigrationCount(db.pool),
      journalLength(release.root),
      `the database is on the previous release's migrations (up to ${release.lastMigration})`,
    );
    assert.ok(journalLength(ROOT) > journalLength(release.root), 'this build has migrations to apply');

    const jwtSecret = randomBytes(32).toString('hex');
    // As README "Deploying several instances" says: on SIGTERM an instance first answers for a while
    // (SHUTDOWN_DRAIN_MS) with /readyz failing, so requests already sent to it finish.
    // Errors are logged (and shown below with a failed request that answered 5xx), nothing else.
    const drain = { SHUTDOWN_DRAIN_MS: '1500', LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? 'error' };
    const old = await startServer({
      root: release.root,
      databaseUrl: db.url,
      jwtSecret,
      env: drain,
      label: `previous release ${release.name}`,
    });
    cleanup.push(() => old.kill());
    old.name = 'old';

    // The balancer: each call goes to the next instance in rotation.
    const live = [old];
    let turn = 0;
    let phase = 'old only';
    const calls = [];
    /** One call through the balancer; anything but `expected` is a failure (kept, and thrown to end the flow). */
    async function call(expected, method, route, options) {
      const server = live[turn++ % live.length];
      const entry = { server: server.name, phase, method, route: route.replace(/[0-9a-f-]{20,}/g, ':id') };
      calls.push(entry);
      try {
        const res = route.startsWith('/sandbox/nowpayments/payments/')
          ? await sandboxControl(server.url, route, options.body)
          : route === '/api/payments/ipn'
            ? await postIpn(server.url, options.body)
            : await api(server.url, method, route, options);
        entry.status = res.status;
        if (res.status !== expected) {
          entry.error = `answered ${res.status} ${res.text.slice(0, 200)}`;
          throw new Error(`${method} ${route} on ${server.name}: ${res.status} ${res.text.slice(0, 300)}`);
        }
        return res;
      } catch (err) {
        entry.error = entry.error ?? (entry.status === undefined ? String(err) : `answered ${entry.status}`);
        throw err;
      }
    }

    // One user's visit: sign up, sign in, a deposit finished at the provider and its IPN, the balance, a ticket.
    const deposits = [];
    const users = [];
    async function visit() {
      const username = `roll${randomBytes(4).toString('hex')}`;
      const registered = await call(201, 'POST', '/api/register', {
        body: { username, email: `${username}@example.com`, password: PASSWORD, turnstileToken: 'ok' },
      });
      const signedIn = await call(200, 'POST', '/api/login', { body: { username, password: PASSWORD, turnstileToken: 'ok' } });
      const token = signedIn.json.token;
      const user = { userId: registered.json.user._id, token, expectedCents: 0 };
      users.push(user);
      const created = await call(201, 'POST', '/api/payments/deposit', { token, body: { crypto: 'btc', amount: 20 } });
      const payment = created.json.payment;
      await call(200, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
        body: { status: 'finished', ipn: false },
      });
      const remote = await call(200, 'GET', `/sandbox/nowpayments/v1/payment/${payment.providerPaymentId}`, {
        headers: { 'x-api-key': 'sandbox-api-key' },
      });
      await call(200, 'POST', '/api/payments/ipn', { body: remote.json });
      const creditsCents = Math.round(payment.credits * 100);
      deposits.push({ id: payment._id, creditsCents });
      user.expectedCents += creditsCents;
      const history = await call(200, 'GET', '/api/credits/history', { token });
      assert.equal(history.json.balanceCents, user.expectedCents, 'the balance read after the IPN shows the deposit');
      await call(201, 'POST', '/api/tickets', { token, body: { subject: 'Deposit question', message: 'Where do I see my deposit?' } });
      await call(200, 'GET', '/api/tickets', { token });
      await call(200, 'GET', '/api/auth/me', { token });
    }

    // Traffic until told to stop; `visits` counts finished visits per phase, and waiters are woken on each.
    let running = true;
    const visits = new Map();
    const waiters = [];
    const flowErrors = [];
    /** This build's server, once it started. */
    let next;
    /** The failed requests, and what the servers logged as errors (a 5xx says why there). */
    const failures = () =>
      flowErrors.length === 0
        ? []
        : [
            ...flowErrors,
            ...[old, next].filter(Boolean).map(
              (server) =>
                `${server.name} logged: ${server
                  .output()
                  .split('\n')
                  .filter((l) => l.includes('"level":50'))
                  .slice(-3)
                  .join('\n')
                  .slice(0, 3000)}`,
            ),
          ];
    const worker = async () => {
      while (running) {
        const at = phase;
        try {
          await visit();
          visits.set(at, (visits.get(at) ?? 0) + 1);
        } catch (err) {
          flowErrors.push(String(err).slice(0, 400));
        }
        for (const w of waiters.splice(0)) w();
      }
    };
    /** Resolves once `n` visits started in the current phase have finished (or the traffic failed). */
    const visitsInPhase = async (n) => {
      while ((visits.get(phase) ?? 0) < n && flowErrors.length === 0) await new Promise((resolve) => waiters.push(resolve));
    };
    const traffic = Array.from({ length: WORKERS }, worker);

    // Lock waits while this build migrates, every 25 ms: the session applying migrations is the one holding
    // the migration advisory lock (MIGRATION_LOCK_ID 7310512001 in src/server/db/migrate.ts: high 32 bits in
    // classid, low in objid). Kept: the longest wait of a session the migration blocks (holding a lock it
    // wants, or queued ahead of it), the migration's own longest wait, and the longest wait of any session.
    const monitor = new pg.Client({ connectionString: db.url });
    await monitor.connect();
    cleanup.push(() => monitor.end());
    let watching = true;
    const longest = { behindMigration: 0, migration: 0, any: 0 };
    const watcher = (async () => {
      while (watching) {
        const res = await monitor.query(
          `WITH migrator AS (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 1 AND objid = 3015544705 AND objsubid = 1),
              waits AS (SELECT l.pid, extract(epoch FROM clock_timestamp() - l.waitstart) * 1000 AS ms FROM pg_locks l
                        WHERE NOT l.granted AND l.locktype <> 'advisory' AND l.waitstart IS NOT NULL)
         SELECT coalesce(max(ms) FILTER (WHERE pg_blocking_pids(pid) && ARRAY(SELECT pid FROM migrator)), 0)::float AS behind_migration,
                coalesce(max(ms) FILTER (WHERE pid IN (SELECT pid FROM migrator)), 0)::float AS migration,
                coalesce(max(ms), 0)::float AS any
         FROM waits`,
        );
        const row = res.rows[0];
        longest.behindMigration = Math.max(longest.behindMigration, row.behind_migration);
        longest.migration = Math.max(longest.migration, row.migration);
        longest.any = Math.max(longest.any, row.any);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();

    try {
      await visitsInPhase(3);
      assert.deepEqual(failures(), [], 'the previous release alone serves the traffic');

      // This build starts on the same database while traffic runs: it applies its migrations at start.
      phase = 'migrating';
      const migrateStart = Date.now();
      next = await startServer({ databaseUrl: db.url, jwtSecret, env: drain, label: 'this build' });
      cleanup.push(() => next.kill());
      next.name = 'new';
      const migrateMs = Date.now() - migrateStart;
      assert.equal(await appliedMigrationCount(db.pool), journalLength(ROOT), "this build's migrations applied");
      assert.ok(
        (visits.get('migrating') ?? 0) + calls.filter((c) => c.phase === 'migrating').length > 0,
        'traffic ran while this build started and migrated',
      );

      // Both behind the balancer.
      phase = 'both';
      live.push(next);
      await visitsInPhase(6);
      assert.deepEqual(failures(), [], 'both releases serve the migrated database');

      // The old one leaves the balancer, then stops (drains, then closes) while traffic goes on to the new one.
      phase = 'new only';
      live.splice(live.indexOf(old), 1);
      await old.stop();
      await visitsInPhase(3);
      console.log(
        `# this build started and migrated in ${secs(migrateMs)}; longest lock waits: behind the migration ${Math.round(longest.behindMigration)} ms, ` +
          `the migration's own ${Math.round(longest.migration)} ms, any session ${Math.round(longest.any)} ms; ` +
          `visits ${JSON.stringify(Object.fromEntries(visits))}; ${calls.length} calls in ${secs(Date.now() - startedAt)}`,
      );
    } finally {
      running = false;
      watching = false;
      for (const w of waiters.splice(0)) w();
      await Promise.all(traffic);
      await watcher.catch(() => {});
    }

    const failed = calls.filter((c) => c.error).map((c) => `${c.phase}: ${c.method} ${c.route} on ${c.server}: ${c.error}`);
    assert.deepEqual(failed, [], 'no failed request (5xx, connection error or an unexpected answer)');
    assert.deepEqual(failures(), []);
    const served = (phase_, server) => calls.filter((c) => c.phase === phase_ && c.server === server).length;
    assert.ok(served('both', 'old') > 0 && served('both', 'new') > 0, 'both releases served after the migration');
    assert.ok(served('new only', 'new') > 0, 'this build served alone after the old one stopped');
    assert.ok(
      longest.behindMigration < LOCK_TIMEOUT_MS,
      `no request waited on the migration's locks as long as the request lock timeout (${longest.behindMigration} ms)`,
    );
    assert.ok(longest.any < LOCK_TIMEOUT_MS, `no session waited on a lock as long as the request lock timeout (${longest.any} ms)`);

    // The ledger is exact: every deposit credited once, for its amount, and each balance is its deposits.
    assert.deepEqual(await paymentViolations(db.pool, deposits), []);
    assert.deepEqual(await ledgerViolations(db.pool), []);
    const balances = await db.pool.query(`SELECT id, credits_cents FROM users WHERE id = ANY($1::uuid[])`, [users.map((u) => u.userId)]);
    const byId = new Map(balances.rows.map((r) => [r.id, Number(r.credits_cents)]));
    assert.deepEqual(
      users.filter((u) => byId.get(u.userId) !== u.expectedCents).map((u) => `${u.userId}: ${byId.get(u.userId)} != ${u.expectedCents}`),
      [],
    );
    for (const server of live) await server.stop();
  },
);
