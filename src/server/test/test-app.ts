import { randomBytes } from 'node:crypto';
import type { AdImageFetcher } from '#server/modules/ads/ad-images.js';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '#server/app.js';
import type { ChatChannel } from '#server/modules/notifications/chat-channel.js';
import { loadConfig, type Config } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { runMigrations } from '#server/db/migrate.js';

export type Engine = 'pglite' | 'postgres';

/** Both engines: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
const BOTH: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The engines a test file runs on, said once at its top (docs/decisions/0300-the-test-suite.md):
 * - `'database'`: behaviour that can differ between the engines (SQL of its own, transactions, locking,
 *   migrations, money paths, the job queue, the contract suites): PGlite and PostgreSQL.
 * - `'logic'`: request/response logic that only reads and writes through the shared services: the
 *   embedded database alone, the one `npm start` runs on (and the one with a single connection, where a
 *   second connection inside a transaction hangs).
 * - `'sweep'`: the same requests sent to every endpoint (the authorization matrix, the mutation suite,
 *   the classic attacks): the embedded database alone. What they check (who may call, how input is
 *   refused, that a refusal stores nothing) is decided above the database; how each module's SQL
 *   behaves on either engine is its own tests' work (docs/decisions/0327-test-time-under-the-line.md).
 */
export function enginesFor(kind: 'database' | 'logic' | 'sweep'): Engine[] {
  return kind === 'database' ? BOTH : ['pglite'];
}

export interface TestDatabase {
  database: Database;
  /** Drops what the test created (the whole database, on PostgreSQL). */
  dispose(): Promise<void>;
}

let pgliteTemplate: Blob | undefined;

/** The migrated embedded database the global setup made once for this run, if it made one. */
function pgliteTemplateData(): Blob | undefined {
  if (!pgliteTemplate) {
    const file = inject('pgliteTemplate');
    if (file) pgliteTemplate = new Blob([readFileSync(file)]);
  }
  return pgliteTemplate;
}

/**
 * A fresh database: an in-memory PGlite, or a new database on the PostgreSQL server of
 * TEST_DATABASE_URL (created and dropped here, so runs never see each other's data). A migrated one is a
 * copy of the database the global setup migrated once (src/server/test/global-setup.ts); without one it
 * migrates itself. `migrate: false` leaves it empty, for a test of a migration over existing rows.
 */
export async function createTestDatabase(engine: Engine, { migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const template = migrate ? pgliteTemplateData() : undefined;
    const database = await openDatabase({ dataDir: 'memory://', ...(template ? { loadDataDir: template } : {}) });
    if (migrate && !template) await runMigrations(database.pool);
    return { database, dispose: () => database.close().catch(() => {}) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = migrate ? inject('postgresTemplate') : undefined;
  const name = `olympus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  if (migrate && !template) await runMigrations(database.pool);
  return {
    database,
    async dispose() {
      await database.close().catch(() => {});
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: App;
  config: Config;
  database: Database;
  /** Base URL of the listening server (sandbox clients call it over real HTTP). */
  url: string;
  close(): Promise<void>;
}

/** A 1×1 PNG for any address: test apps never fetch ad images from the network (docs/decisions/0303). */
const TEST_AD_IMAGE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const answerTestImage: AdImageFetcher = async () => TEST_AD_IMAGE;

/**
 * The real app, listening on a random loopback port, on a fresh database. `env` overrides settings
 * (RATE_LIMITS defaults to on, as in production). The log is off unless `env` sets LOG_LEVEL; then it
 * goes to `options.logStream` when given.
 */
export async function startTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  options: {
    logStream?: { write(line: string): void };
    chatChannels?: ChatChannel[];
    database?: Database;
    adImageFetcher?: AdImageFetcher;
  } = {},
): Promise<TestApp> {
  // A second instance on the same database passes the first one's (its owner drops it).
  const db = options.database ? { database: options.database, dispose: async () => {} } : await createTestDatabase(engine);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: 'memory://',
    // Staff made with setRole in a test have no second factor; the staff two-factor gate (on by
    // default) is tested where a test sets this to 1 itself.
    REQUIRE_STAFF_2FA: '0',
    ...env,
  });
  const app = await buildApp({
    config,
    database: db.database,
    isMigrated: () => true,
    logStream: options.logStream,
    chatChannels: options.chatChannels,
    adImageFetcher: options.adImageFetcher ?? answerTestImage,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    config,
    database: db.database,
    url,
    async close() {
      await closeStep('app.close()', db.database, () => app.close());
      await closeStep('dropping the test database', db.database, () => db.dispose());
    },
  };
}

/** How long one step of closing a test app may take before it fails with what it was waiting on (under the hooks' 60 s). */
const CLOSE_STEP_MS = 25_000 * Math.max(1, Number(process.env.TEST_TIMEOUT_SCALE ?? 1) || 1);

/**
 * Runs one step of closing a test app. A step that hangs (a pool client nobody released, a job that
 * never ends) fails within the hook's time with the pool's counts, instead of timing the hook out
 * with no word of which step it was.
 */
async function closeStep(name: string, database: Database, step: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const { totalCount, idleCount, waitingCount } = database.pool;
      reject(
        new Error(
          `${name} did not finish in ${CLOSE_STEP_MS / 1000} s (${database.engine} pool: ${totalCount} clients, ${idleCount} idle, ${waitingCount} waiting)`,
        ),
      );
    }, CLOSE_STEP_MS);
  });
  try {
    await Promise.race([step(), hung]);
  } finally {
    clearTimeout(timer);
  }
}
