import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

/** Same relative place from src/server/db and dist/server/db. */
export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/server/db/migrations');

/** Any constant works; it only has to be the same for every instance of this app. */
const MIGRATION_LOCK_ID = 7_310_512_001;

/** PostgreSQL's deadlock_detected and lock_not_available: the attempt lost a race for a table lock. */
const LOST_LOCK_RACE = new Set(['40P01', '55P03']);

export interface MigrationOptions {
  /**
   * How long one attempt waits for a table lock before it gives up and tries again later. Requests of
   * the running release queue behind a migration that waits for a lock, so this bounds their wait too
   * (docs/decisions/0307-rolling-upgrades-expand-and-contract.md). Default 1 s.
   */
  lockWaitMs?: number;
  /** Attempts before the start fails. Default 30 (several minutes with the pauses between them). */
  attempts?: number;
  /** The pause before attempt `n + 1`. Default: 250 ms doubling to 10 s, with jitter. */
  pauseMs?: (attempt: number) => number;
  /** Told of each attempt that lost a lock race, before the pause. */
  onRetry?: (attempt: number, error: Error) => void;
}

const defaultPause = (attempt: number) => Math.min(250 * 2 ** (attempt - 1), 10_000) * (0.5 + Math.random() / 2);

/**
 * Applies pending migrations once. A session-level advisory lock makes instances that start together
 * take turns: the first applies, the others find nothing left to do. `migrationsFolder` is for tests that
 * stop at an earlier migration.
 *
 * Drizzle applies the pending migrations in one transaction, so an attempt that loses a race for a table
 * lock against the running release's traffic (a lock wait past `lockWaitMs`, or a deadlock) leaves
 * nothing behind and is simply made again after a pause, up to `attempts` times.
 */
export async function runMigrations(pool: pg.Pool, migrationsFolder = MIGRATIONS_FOLDER, options: MigrationOptions = {}): Promise<void> {
  const { lockWaitMs = 1_000, attempts = 30, pauseMs = defaultPause, onRetry } = options;
  const client = await pool.connect();
  try {
    // Waiting for another instance's migrations may take longer than a request may (decision 0301), and
    // so may a migration's statements: no limit on either for this session, restored before it goes back.
    await client.query('SET lock_timeout = 0; SET statement_timeout = 0');
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(lockWaitMs))}`);
        for (let attempt = 1; ; attempt++) {
          try {
            await migrate(drizzle(client), { migrationsFolder });
            break;
          } catch (error) {
            const code = lockRaceCode(error);
            if (!code || attempt >= attempts) {
              if (code)
                throw new Error(`Migrations gave up after ${attempt} attempts, each losing a race for a table lock (${code})`, {
                  cause: error,
                });
              throw error;
            }
            onRetry?.(attempt, error as Error);
            await sleep(pauseMs(attempt));
          }
        }
      } finally {
        await client.query('SET lock_timeout = 0');
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      await client.query('RESET lock_timeout; RESET statement_timeout');
    }
  } finally {
    client.release();
  }
}

/** The SQLSTATE of a lost lock race, from the error or the one Drizzle wrapped it in. */
function lockRaceCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && LOST_LOCK_RACE.has(code)) return code;
  }
  return undefined;
}
