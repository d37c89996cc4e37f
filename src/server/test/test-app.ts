import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type App } from '#server/app.js';
import type { ChatChannel } from '#server/modules/notifications/chat-channel.js';
import { loadConfig, type Config } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { runMigrations } from '#server/db/migrate.js';

export type Engine = 'pglite' | 'postgres';

/** The engines integration tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  database: Database;
  /** Drops what the test created (the whole database, on PostgreSQL). */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a new database on the PostgreSQL server of
 * TEST_DATABASE_URL (created and dropped here, so runs never see each other's data). `migrate: false`
 * leaves it empty, for a test of a migration over existing rows.
 */
export async function createTestDatabase(engine: Engine, { migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://' });
    if (migrate) await runMigrations(database.pool);
    return { database, dispose: () => database.close().catch(() => {}) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `olympus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  if (migrate) await runMigrations(database.pool);
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

/**
 * The real app, listening on a random loopback port, on a fresh database. `env` overrides settings
 * (RATE_LIMITS defaults to on, as in production). The log is off unless `env` sets LOG_LEVEL; then it
 * goes to `options.logStream` when given.
 */
export async function startTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void }; chatChannels?: ChatChannel[]; database?: Database } = {},
): Promise<TestApp> {
  // A second instance on the same database passes the first one's (its owner drops it).
  const db = options.database ? { database: options.database, dispose: async () => {} } : await createTestDatabase(engine);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: 'memory://',
    ...env,
  });
  const app = await buildApp({ config, database: db.database, isMigrated: () => true, logStream: options.logStream, chatChannels: options.chatChannels });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    config,
    database: db.database,
    url,
    async close() {
      await app.close();
      await db.dispose();
    },
  };
}
