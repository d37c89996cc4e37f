import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, Tx } from '#server/db/client.js';

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

/**
 * The one background job queue (docs/architecture.md#jobs): pg-boss on the application's own database and
 * connection pool, so it runs the same on PGlite and PostgreSQL. pg-boss hands each job to exactly one
 * worker across every instance (SKIP LOCKED) and keeps jobs in the database, so they survive restarts.
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private starting: Promise<void> | null = null;
  /** Set by stop(): a send from a request still in flight during shutdown must not start it again. */
  private stopped = false;

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
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    const pool = this.database.pool;
    const boss = new PgBoss({
      // Share the app's pool: no second set of connections (the embedded database has a fixed number).
      db: { executeSql: (text, values) => pool.query(text, values) },
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
        await boss.work(
          def.name,
          { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
          async (jobs) => {
            for (const job of jobs) {
              try {
                await def.handler((job.data ?? {}) as object, { id: job.id, name: job.name });
              } catch (err) {
                this.log.error({ err, job: job.name, jobId: job.id }, 'job failed; it will be retried');
                throw err;
              }
            }
          },
        );
      }
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { singletonKey: def.name });
      else await boss.unschedule(def.name).catch(() => {});
    }
    this.boss = boss;
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
    return boss.send(name, data, sendOptions);
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
      data.map((d) => ({ name, data: d })),
      { db: { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: unknown[] }> } },
    );
  }

  /** Stops fetching, lets running jobs finish (bounded), and leaves the shared pool open. */
  async stop(): Promise<void> {
    this.stopped = true;
    const starting = this.starting;
    if (!starting) return;
    await starting.catch(() => {});
    const boss = this.boss;
    this.boss = null;
    this.starting = null;
    if (!boss) return;
    try {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
    } catch (err) {
      this.log.warn({ err }, 'job queue did not stop cleanly');
    }
  }
}
