import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, Tx } from '#server/db/client.js';
import { JOB_TRACE_KEY, traceHooks } from '#server/tracing/hooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export interface JobDefinition<T extends object> {
  name: string;
  handler: (data: T, job: { id: string; name: string }) => Promise<void>;
  /** Cron (minute resolution): pg-boss sends one job per tick across all instances. */
  cron?: string;
  /** Failed runs are retried this many times with backoff. */
  retryLimit?: number;
  /** A running job is considered lost (and retried) after this long. */
  expireInSeconds?: number;
  /** Jobs of this queue run at most this many at a time on each instance (default 1). */
  concurrency?: number;
}

export interface SendOptions {
  /** Enqueue on this transaction's connection, so the job exists only if the transaction commits. */
  tx?: Tx;
  /** At most one queued job with this key. */
  singletonKey?: string;
  startAfterSeconds?: number;
}

type PgClient = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/** The connection a drizzle transaction runs on (docs/architecture.md#principles: inside a transaction use only it). */
function transactionClient(tx: Tx): PgClient {
  const client = (tx as unknown as { session?: { client?: PgClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('transaction has no connection');
  return client;
}

/** pg-boss's completion statements (complete, fail, cancel, resume, …), whose answer it reads as a count. */
const LATE_COUNT_STATEMENT = /select\s+count\(\*\)\s+from\s+results\s*;?\s*$/i;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/**
 * The one background job queue (docs/architecture.md#jobs): pg-boss on the application's own database and
 * connection pool, so it runs the same on PGlite and PostgreSQL. pg-boss hands each job to exactly one
 * worker across every instance (SKIP LOCKED) and keeps jobs in the database, so they survive restarts.
 *
 * Every query pg-boss makes and every handler it runs is counted here, because pg-boss's own stop does
 * not wait for all of its work: a worker's poll still in flight (which may hand it a job after the stop),
 * the completion of a job whose handler just returned, its internal cron worker and a maintenance or
 * cron tick. stop() waits for all of that before the pool may close (decision 0213).
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  /** Whether the boss of the current start may still reach the pool; closed by stop(). */
  private gate = { open: true };
  /** pg-boss's queries and our handlers still running. */
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly handlers = new Set<Promise<unknown>>();
  /**
   * How long stop() waits for running jobs before releasing them for a retry (pg-boss marks them failed
   * with "pg-boss shut down while active"); shorter than the server's 15 s shutdown limit.
   */
  stopTimeoutMs = 10_000;
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private starting: Promise<void> | null = null;
  /** Set by stop(): a send from a request still in flight during shutdown must not start it again. */
  private stopped = false;
  /** The ids of this instance's pg-boss workers, so drain() can wake them. */
  private workerIds: string[] = [];

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: { pollingIntervalSeconds?: number } = {},
  ) {}

  /** Declares a queue and its worker; call before the app starts listening. */
  define<T extends object>(definition: JobDefinition<T>): void {
    if (this.boss) throw new Error(`job ${definition.name} defined after the queue started`);
    this.definitions.set(definition.name, definition as unknown as JobDefinition<object>);
  }

  get started(): boolean {
    return this.boss !== null;
  }

  start(): Promise<void> {
    this.stopped = false;
    // The workers' polling loops begin here: with traces on, outside the trace of whatever started them.
    this.starting ??= traceHooks.current ? traceHooks.current.detached(() => this.doStart()) : this.doStart();
    return this.starting;
  }

  /** Counts `work` as in flight until it settles. */
  private track<T>(set: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
    set.add(work);
    const done = () => set.delete(work);
    work.then(done, done);
    return work;
  }

  private async doStart(): Promise<void> {
    const pool = this.database.pool;
    const gate = { open: true };
    this.gate = gate;
    let lateQueries = 0;
    this.workerIds = [];
    const boss = new PgBoss({
      // Share the app's pool: no second set of connections (the embedded database has a fixed number).
      // Once stopped, a query pg-boss still makes (only the completion or failure of a job that outlived
      // the stop) gets an empty answer instead of a pool that may have closed: pg-boss fires those calls
      // without awaiting them, so a rejection would be an unhandled one. Its completion statements end
      // in `SELECT COUNT(*) FROM results` and it reads that count, so they get a zero.
      db: {
        executeSql: (text, values) => {
          if (!gate.open) {
            if (lateQueries++ === 0) this.log.warn('job queue query after stop ignored');
            return Promise.resolve({ rows: LATE_COUNT_STATEMENT.test(text) ? [{ count: '0' }] : [] });
          }
          return this.track(this.inflight, pool.query(text, values));
        },
      },
      schema: 'pgboss',
      migrate: true,
      supervise: true,
      schedule: true,
    });
    boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    await boss.start();
    for (const def of this.definitions.values()) {
      if (!(await boss.getQueue(def.name))) {
        await boss.createQueue(def.name, {
          name: def.name,
          retryLimit: def.retryLimit ?? 3,
          retryBackoff: true,
          retryDelay: 5,
          expireInSeconds: def.expireInSeconds ?? 300,
        });
      }
      // One pg-boss worker per unit of concurrency: each fetches and runs one job at a time, so a slow
      // job (a webhook receiver taking its full timeout) holds up only its own worker.
      for (let worker = 0; worker < Math.max(1, def.concurrency ?? 1); worker++) {
        const workerId = await boss.work(
          def.name,
          { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
          async (jobs) => {
            for (const job of jobs) {
              try {
                await this.track(this.handlers, this.runHandler(def, job));
              } catch (err) {
                if (gate.open) this.log.error({ err, job: job.name, jobId: job.id }, 'job failed; it will be retried');
                // Outlived the stop: pg-boss released it already, and the pool may be gone.
                else this.log.warn({ job: job.name, jobId: job.id }, 'job interrupted by shutdown; it will run again');
                throw err;
              }
            }
          },
        );
        this.workerIds.push(workerId);
      }
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { singletonKey: def.name });
      else await boss.unschedule(def.name).catch(() => {});
    }
    this.boss = boss;
  }

  /**
   * Runs a job's handler on its data. With traces on, the handler runs in a span continuing the trace
   * that queued the job (carried in the data by withTrace); the carrier is never shown to the handler.
   */
  private runHandler(def: JobDefinition<object>, job: { id: string; name: string; data: unknown }): Promise<void> {
    const data = (job.data ?? {}) as Record<string, unknown>;
    const meta = { id: job.id, name: job.name };
    if (!(JOB_TRACE_KEY in data)) {
      const hooks = traceHooks.current;
      return hooks ? hooks.runJob(job.name, job.id, undefined, () => def.handler(data, meta)) : def.handler(data, meta);
    }
    const { [JOB_TRACE_KEY]: carrier, ...rest } = data;
    const hooks = traceHooks.current;
    if (!hooks) return def.handler(rest, meta);
    return hooks.runJob(job.name, job.id, carrier as Record<string, string>, () => def.handler(rest, meta));
  }

  /** The job's data, carrying the current trace when traces are on (the data as given otherwise). */
  private withTrace(data: object): object {
    const hooks = traceHooks.current;
    if (!hooks) return data;
    const carrier = hooks.inject();
    return Object.keys(carrier).length === 0 ? data : { ...data, [JOB_TRACE_KEY]: carrier };
  }

  /** Enqueues a job; answers its id, or null when a singleton job is already queued. */
  async send(name: string, data: object = {}, options: SendOptions = {}): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    // Restarting pg-boss here during shutdown would hold the process open (and inside a transaction on
    // the embedded database, deadlock it): the caller's work fails instead, like any database error.
    if (this.stopped) throw new Error(`job ${name} not queued: the job queue has stopped`);
    if (!this.boss) await this.start();
    const boss = this.boss!;
    const sendOptions: PgBoss.SendOptions = {};
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    if (options.startAfterSeconds) sendOptions.startAfter = options.startAfterSeconds;
    if (options.tx) {
      const client = transactionClient(options.tx);
      sendOptions.db = { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: unknown[] }> };
    }
    return boss.send(name, this.withTrace(data), sendOptions);
  }

  /**
   * Enqueues one job of `name` per item of `data` in one statement (group commit of IPNs,
   * docs/decisions/0191); on `tx` like send(). No singleton keys or delays.
   */
  async sendMany(name: string, data: object[], options: { tx: Tx }): Promise<void> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    if (this.stopped) throw new Error(`job ${name} not queued: the job queue has stopped`);
    if (data.length === 0) return;
    if (!this.boss) await this.start();
    const client = transactionClient(options.tx);
    await this.boss!.insert(
      data.map((d) => ({ name, data: this.withTrace(d) })),
      { db: { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: unknown[] }> } },
    );
  }

  /**
   * Runs every job that is due now, and every job those jobs queue, then answers: the workers are woken
   * instead of waiting for their next poll, and drain() returns once no job of this queue's names is
   * due or running and no handler is in flight. Jobs scheduled for later (a retry's backoff,
   * `startAfterSeconds`) are left alone. Tests wait with this rather than sleeping through a poll
   * (docs/decisions/0300-the-test-suite.md); it changes nothing about how jobs run. Answers whether it
   * found any job due or running, so a caller can tell that nothing ran since it last looked.
   */
  async drain({ timeoutMs = 30_000 }: { timeoutMs?: number } = {}): Promise<boolean> {
    if (!this.starting) return false;
    await this.starting;
    const boss = this.boss;
    if (!boss) return false;
    let foundWork = false;
    const names = [...this.definitions.keys()];
    const deadline = Date.now() + timeoutMs;
    let quietChecks = 0;
    for (;;) {
      const { rows } = await this.database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job
          WHERE name = ANY($1::text[]) AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
        [names],
      );
      const waiting = rows[0]?.n ?? 0;
      if (waiting === 0 && this.handlers.size === 0) {
        // A completion that was just answered may still be on its way; look twice before calling it done.
        if (++quietChecks >= 2) return foundWork;
      } else {
        quietChecks = 0;
        foundWork = true;
      }
      if (Date.now() > deadline) throw new Error(`job queue not drained within ${timeoutMs} ms (${waiting} due or running)`);
      for (const id of this.workerIds) boss.notifyWorker(id);
      await Promise.race([Promise.allSettled([...this.handlers]), sleep(20)]);
    }
  }

  /**
   * Stops fetching and waits, up to `stopTimeoutMs`, for every running job and every query pg-boss has
   * in flight (a poll that hands out one more job, that job, its completion, a maintenance or cron
   * tick); a job still running then is released for a retry. Afterwards pg-boss no longer reaches the
   * shared pool, which the caller may close (decision 0213).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const starting = this.starting;
    if (!starting) return;
    const deadline = Date.now() + this.stopTimeoutMs;
    await starting.catch(() => {});
    const boss = this.boss;
    const gate = this.gate;
    this.boss = null;
    this.starting = null;
    if (!boss) return;
    try {
      await boss.stop({ graceful: true, wait: true, timeout: this.stopTimeoutMs, close: false });
    } catch (err) {
      this.log.warn({ err }, 'job queue did not stop cleanly');
    }
    const quiet = await this.settle(deadline);
    gate.open = false;
    if (!quiet)
      this.log.warn(
        { handlers: this.handlers.size, queries: this.inflight.size },
        'job queue stopped with work still running; its jobs run again later',
      );
  }

  /** Waits until no query or handler is in flight (and none starts right after), or the deadline. */
  private async settle(deadline: number): Promise<boolean> {
    for (;;) {
      const pending = [...this.inflight, ...this.handlers];
      if (pending.length === 0) {
        // What settled may chain more within a moment (a job's completion after its handler).
        await sleep(20);
        if (this.inflight.size === 0 && this.handlers.size === 0) return true;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await Promise.race([Promise.allSettled(pending), sleep(left)]);
    }
  }
}
