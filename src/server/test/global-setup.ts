import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { runMigrations } from '#server/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated embedded database's data directory, which every test file loads a copy of. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database every test file's database is created from (`CREATE DATABASE … TEMPLATE`). */
    postgresTemplate: string;
  }
}

/**
 * Brings a new database to what a test's app finds at start: every migration applied, and the job
 * queue's own schema and queues made by one start of the app (which is what costs most on the embedded
 * database). Jobs that start queued (its cron ticks) are removed, so a copy begins with none.
 */
async function prepare(database: Database): Promise<void> {
  await runMigrations(database.pool);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: 'memory://',
  });
  const app = await buildApp({ config, database, isMigrated: () => true });
  await app.ready();
  await app.close();
  await database.pool.query('DELETE FROM pgboss.job');
}

/**
 * Vitest's global setup for the server tests: makes each engine's migrated database once per run
 * (docs/decisions/0300-the-test-suite.md). Test files copy it in `createTestDatabase`; the teardown drops it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];

  const folder = mkdtempSync(path.join(tmpdir(), 'olympus-template-'));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    await prepare(lite);
    const tarball = path.join(folder, 'pglite.tar');
    writeFileSync(tarball, Buffer.from(await (await lite.dumpEmbedded!()).arrayBuffer()));
    project.provide('pgliteTemplate', tarball);
  } finally {
    await lite.close();
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `olympus_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
    try {
      await prepare(database);
    } finally {
      // A template may have no connection while it is copied.
      await database.close();
    }
    project.provide('postgresTemplate', name);
  }

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
}
