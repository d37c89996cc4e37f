import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lockEmbeddedDirectory } from './embedded-lock.js';

/**
 * The ORM handle. The database layer knows no module's tables: each module imports its own
 * `*.tables.ts` (and another module's tables file) where it queries them, and drizzle-kit finds them
 * by glob (drizzle.config.ts). No relational `db.query.*` API, so no composed schema is passed in
 * (docs/decisions/0100-server-layout.md).
 */
export type Db = NodePgDatabase;
/** A transaction handle: module functions take `Db | Tx` so callers can compose them atomically. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  engine: 'pglite' | 'postgres';
  pool: pg.Pool;
  db: Db;
  /** The connection string the pool uses (the embedded socket server's, for PGlite). */
  connectionString: string;
  /**
   * What needs a session of its own rather than a transaction: LISTEN (db/invalidation.ts) and the
   * migrations' advisory lock. The same database as `pool`, but not through a transaction pooler such
   * as PgBouncer (docs/decisions/0334-pgbouncer-between-instances-and-postgresql.md): `DATABASE_DIRECT_URL`
   * when set, else the pool's own connection string and pool.
   */
  session: { connectionString: string; pool: pg.Pool };
  /**
   * The embedded database only: LISTEN in-process (its single session sees every change; what the
   * pool's queries raise is heard on the pool's connection). PostgreSQL is listened to on a dedicated
   * connection instead (db/invalidation.ts).
   */
  listenEmbedded?: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
  /** The embedded database only: its whole data directory as an uncompressed tarball (see `loadDataDir`). */
  dumpEmbedded?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL reached directly when `databaseUrl` goes through a transaction pooler (see `Database.session`). */
  directUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  dataDir: string;
  /** PostgreSQL pool size (the embedded database always uses one connection). */
  poolSize?: number;
  /**
   * PostgreSQL session limits (decision 0301): a statement waiting longer than `lockMs` for a row lock, or
   * running longer than `statementMs`, is cancelled (the request answers 409 or 503 with Retry-After), and
   * a connection left idle inside a transaction is closed, so a burst of one user's requests or a stuck
   * query never holds the pool. Defaults: 5 s and 30 s. Migrations lift both for their own session.
   */
  timeouts?: { lockMs: number; statementMs: number };
  /**
   * The embedded database only: start from this data directory (a tarball from `dumpEmbedded`) instead
   * of an empty one. The tests copy one migrated database this way (docs/decisions/0300-the-test-suite.md).
   */
  loadDataDir?: Blob;
}

// BIGINT columns (cents) come back as strings by default; our amounts fit safely in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer out of range: ${value}`);
  return n;
});

/**
 * Opens the database. Both engines are reached through the same `pg` driver: PGlite is exposed on a
 * loopback socket by pglite-socket, so the ORM, the job queue and every query share one code path
 * (docs/decisions/0002-one-code-path-for-pglite-and-postgresql.md).
 */
/** Said at start-up by a build without the embedded database (the default container image). */
export const EMBEDDED_DATABASE_MISSING =
  'This build has no embedded database (a container image built without EMBEDDED_DATABASE=1): set DATABASE_URL to a PostgreSQL database.';

const DEFAULT_TIMEOUTS = { lockMs: 5_000, statementMs: 30_000 };

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? 10;
  if (options.databaseUrl) {
    const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: poolSize,
      connectionTimeoutMillis: 5000,
      lock_timeout: timeouts.lockMs,
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: 60_000,
    });
    pool.on('error', () => {
      // An idle client lost its connection (database restart); the pool replaces it on next use.
    });
    const directUrl = options.directUrl && options.directUrl !== options.databaseUrl ? options.directUrl : null;
    // Migrations take one connection while they run; LISTEN opens its own client (db/invalidation.ts).
    const sessionPool = directUrl
      ? new pg.Pool({ connectionString: directUrl, max: 1, connectionTimeoutMillis: 5000, idleTimeoutMillis: 5000 })
      : pool;
    if (directUrl) sessionPool.on('error', () => {});
    return {
      engine: 'postgres',
      pool,
      db: drizzle(pool),
      connectionString: options.databaseUrl,
      session: { connectionString: directUrl ?? options.databaseUrl, pool: sessionPool },
      async close() {
        await pool.end();
        if (sessionPool !== pool) await sessionPool.end();
      },
    };
  }

  // Loaded only for the embedded database: a server on PostgreSQL never loads PGlite's code.
  const [{ PGlite }, { PGLiteSocketServer }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-socket'),
    // The trigram extension under the staff's user search (migration 0042).
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]).catch((err: NodeJS.ErrnoException) => {
    // The container image leaves PGlite out unless built with EMBEDDED_DATABASE=1 (decision 0270).
    if (err.code === 'ERR_MODULE_NOT_FOUND') throw new Error(EMBEDDED_DATABASE_MISSING, { cause: err });
    throw err;
  });
  const memory = options.dataDir === 'memory://';
  const pgliteDir = memory ? undefined : path.join(options.dataDir, 'pglite');
  if (pgliteDir) mkdirSync(pgliteDir, { recursive: true });
  // One process per directory (embedded-lock.ts): the operator command refuses while the server runs.
  const unlock = pgliteDir ? lockEmbeddedDirectory(options.dataDir) : () => {};
  let lite: InstanceType<typeof PGlite>;
  let socketServer: InstanceType<typeof PGLiteSocketServer>;
  try {
    lite = await PGlite.create({
      extensions: { pg_trgm },
      ...(pgliteDir ? { dataDir: pgliteDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    socketServer = new PGLiteSocketServer({ db: lite, host: '127.0.0.1', port: 0, maxConnections: 4 });
    await socketServer.start();
  } catch (err) {
    unlock();
    throw err;
  }
  const connectionString = `postgres://postgres@${socketServer.getServerConn()}/postgres?sslmode=disable`;
  // One connection: PGlite has a single session, and pglite-socket can interleave the extended-protocol
  // messages of concurrent connections (electric-sql/pglite #985, #1046): seen here as hung requests and
  // `08P01 exec_bind_message` under 50 concurrent IPNs. Queueing in the pool serialises work, which the
  // embedded engine does anyway. The timeout turns a misuse (a second connection inside a transaction)
  // into an error instead of a hang.
  const pool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: 30_000 });
  pool.on('error', () => {});
  // PGlite has one session, so a LISTEN made through its own API covers the queries that come through
  // the socket too; but it hands the notifications those queries raise to the socket's client with
  // their answer, not to its own listener. So they are heard on the pool's connection (decision 0316).
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const hear = (channel: string, payload: string) => {
    for (const onPayload of listeners.get(channel) ?? []) onPayload(payload);
  };
  pool.on('connect', (client) => client.on('notification', (msg) => hear(msg.channel, msg.payload ?? '')));
  return {
    engine: 'pglite',
    pool,
    db: drizzle(pool),
    connectionString,
    session: { connectionString, pool },
    async listenEmbedded(channel, onPayload) {
      const heard = listeners.get(channel) ?? new Set();
      listeners.set(channel, heard.add(onPayload));
      // PGlite's own listener still hears what is raised through its API (not the socket's).
      const unlisten = await lite.listen(channel, onPayload);
      return async () => {
        heard.delete(onPayload);
        await unlisten();
      };
    },
    dumpEmbedded: () => lite.dumpDataDir('none'),
    async close() {
      try {
        await pool.end();
        await socketServer.stop();
        await lite.close();
      } finally {
        unlock();
      }
    },
  };
}
