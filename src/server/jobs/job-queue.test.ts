import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { createTestDatabase, enginesFor, type TestDatabase } from '#server/test/test-app.js';

/**
 * Shutdown of the job queue (decision 0213): closing the app stops pg-boss and waits for what it has in
 * flight (job handlers, the completion of a finished job, maintenance and cron ticks) before the
 * database pool closes, so nothing touches a closed pool.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The workers poll this often here (pg-boss's shortest), instead of every 2 s, so a quiet spell can be short. */
const POLL_SECONDS = 0.5;

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(25);
  }
}

describe.each(enginesFor('database'))('job queue shutdown on %s', (engine) => {
  let db: TestDatabase;
  let app: App;
  let logLines: Array<{ level: number; msg: string; err?: { message?: string } }>;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  async function startApp(define?: (app: App) => void): Promise<void> {
    db = await createTestDatabase(engine);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: 'memory://',
    });
    app = await buildApp({
      config,
      database: db.database,
      jobPollingIntervalSeconds: POLL_SECONDS,
      logStream: { write: (line) => void logLines.push(JSON.parse(line)) },
    });
    define?.(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
  }

  /** The app's close, then the pool's end at once: what the server and the tests do. */
  async function closeAll(): Promise<void> {
    await app.close();
    await db.dispose();
  }

  beforeEach(() => {
    logLines = [];
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  /** After the pool closed, nothing may still be trying to use it: no error in the log, no unhandled rejection. */
  async function expectQuietAfterClose(): Promise<void> {
    // Kept: proves that nothing happens; a worker still running would poll within its interval, and nothing else would tell.
    await sleep(POLL_SECONDS * 1000 + 500);
    const errors = logLines.filter((l) => l.level >= 50).map((l) => `${l.msg}: ${l.err?.message ?? ''}`);
    expect(errors).toEqual([]);
    expect(unhandled).toEqual([]);
  }

  it('lets a running job finish and be marked completed before the pool closes', async () => {
    const events: string[] = [];
    let jobId: string | null = null;
    await startApp((a) =>
      a.jobs.define<{ n: number }>({
        name: 'test.slow',
        retryLimit: 0,
        handler: async (data) => {
          events.push(`started ${data.n}`);
          // Kept: a job still running when the stop would otherwise be done; nothing marks that moment.
          await sleep(1500);
          // The pool is still open for the handler's own work at the end of its run.
          const { rows } = await db.database.pool.query<{ n: number }>('SELECT $1::int AS n', [data.n]);
          events.push(`finished ${rows[0]!.n}`);
        },
      }),
    );
    jobId = await app.jobs.send('test.slow', { n: 7 });
    await waitFor(() => events.includes('started 7'), 20_000);

    await app.close();
    // Closed: the handler ran to its end and pg-boss recorded the job as completed (not still active).
    expect(events).toEqual(['started 7', 'finished 7']);
    const { rows } = await db.database.pool.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [jobId]);
    expect(rows[0]?.state).toBe('completed');
    await db.dispose();
    await expectQuietAfterClose();
  }, 60_000);

  it('stops cleanly right after starting, while the maintenance and cron ticks of the start are in flight', async () => {
    await startApp();
    await closeAll();
    await expectQuietAfterClose();
  }, 60_000);

  it('waits for polls still in flight at the stop, and for the jobs they hand out, before the pool closes', async () => {
    const events: string[] = [];
    await startApp((a) =>
      a.jobs.define<{ n: number }>({
        name: 'test.late',
        concurrency: 3,
        retryLimit: 0,
        handler: async (data) => {
          events.push(`started ${data.n}`);
          // Kept: work that outlasts the stop's start (the same reason as above).
          await sleep(200);
          await db.database.pool.query('SELECT 1');
          events.push(`finished ${data.n}`);
        },
      }),
    );
    const ids = await Promise.all([1, 2, 3].map((n) => app.jobs.send('test.late', { n })));
    // Hold the job table: every worker's next poll waits on it, so all are in flight when the app closes.
    const blocker = await db.database.pool.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE pgboss.job IN ACCESS EXCLUSIVE MODE');
    // Every worker's next poll waits on the lock: queued for the one connection (embedded), or on the lock (PostgreSQL).
    const blockedPolls = async () =>
      engine === 'pglite'
        ? db.database.pool.waitingCount
        : (
            (
              await blocker.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              )
            ).rows[0] as { n: number }
          ).n;
    await expect.poll(blockedPolls, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    const closing = app.close();
    await expect.poll(() => app.jobs.started, { timeout: 20_000, interval: 20 }).toBe(false); // the stop has begun
    await blocker.query('COMMIT');
    blocker.release();
    await closing;

    // The polls answered after the stop began; the jobs they handed out ran to their end and were recorded.
    for (const n of [1, 2, 3]) if (events.includes(`started ${n}`)) expect(events).toContain(`finished ${n}`);
    const { rows } = await db.database.pool.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = ANY($1::uuid[])', [ids]);
    expect(rows.map((r) => r.state).filter((state) => state === 'active')).toEqual([]);
    await db.dispose();
    await expectQuietAfterClose();
  }, 60_000);

  it('releases a job that outlives the stop timeout for a retry before the pool closes, without an error', async () => {
    const events: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await startApp((a) => {
      a.jobs.stopTimeoutMs = 1000;
      a.jobs.define({
        name: 'test.stuck',
        retryLimit: 2,
        handler: async () => {
          events.push('started');
          await released; // until the pool has closed: the job outlives the stop timeout
          await db.database.pool.query('SELECT 1'); // the pool has closed by now: this throws
          events.push('finished');
        },
      });
    });
    const jobId = await app.jobs.send('test.stuck');
    await waitFor(() => events.includes('started'), 20_000);
    await app.close();
    // pg-boss gave up waiting and released it: the next start (or another instance) runs it again.
    const { rows } = await db.database.pool.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [jobId]);
    expect(rows[0]?.state).toBe('retry');
    await db.dispose();
    release();
    await expect
      .poll(() => logLines.some((l) => l.level === 40 && l.msg === 'job interrupted by shutdown; it will run again'), { timeout: 10_000 })
      .toBe(true);
    await expectQuietAfterClose();
    expect(events).toEqual(['started']);
  }, 60_000);
});
