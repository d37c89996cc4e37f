import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

/** Same relative place from src/server/db and dist/server/db. */
export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/server/db/migrations');

/** Any constant works; it only has to be the same for every instance of this app. */
const MIGRATION_LOCK_ID = 7_310_512_001;

/**
 * Applies pending migrations once. A session-level advisory lock makes instances that start together
 * take turns: the first applies, the others find nothing left to do. `migrationsFolder` is for tests that
 * stop at an earlier migration.
 */
export async function runMigrations(pool: pg.Pool, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const client = await pool.connect();
  try {
    // A migration (and an instance waiting for another's) may take longer than a request may
    // (decision 0301): no lock or statement limit for this session, restored before it goes back.
    await client.query('SET lock_timeout = 0; SET statement_timeout = 0');
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await migrate(drizzle(client), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      await client.query('RESET lock_timeout; RESET statement_timeout');
    }
  } finally {
    client.release();
  }
}
