import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
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
   * (docs/decisions/0307-rolling-upgrades-expand-and-contract.md). Default 500 ms: below PostgreSQL's
   * deadlock_timeout (1 s), so a request queued behind it gives up waiting never, and is never picked as
   * a deadlock's victim.
   */
  lockWaitMs?: number;
  /** Attempts before the start fails. Default 30 (several minutes with the pauses between them). */
  attempts?: number;
  /** The pause before attempt `n + 1`. Default: 250 ms doubling to 10 s, with jitter. */
  pauseMs?: (attempt: number) => number;
  /** Told of each attempt that lost a lock race, before the pause. */
  onRetry?: (attempt: number, error: Error) => void;
}

/** Where the migrations are recorded: Drizzle's own table, so databases migrated before keep their history. */
const JOURNAL = 'drizzle.__drizzle_migrations';

const defaultPause = (attempt: number) => Math.min(250 * 2 ** (attempt - 1), 10_000) * (0.5 + Math.random() / 2);

/**
 * Applies pending migrations once. A session-level advisory lock makes instances that start together
 * take turns: the first applies, the others find nothing left to do. `migrationsFolder` is for tests that
 * stop at an earlier migration.
 *
 * The pending migrations apply in one transaction (as Drizzle's migrator does, with the same journal),
 * which first locks every existing table they name, in one statement and a fixed order. So the
 * migration never holds one table while it waits for another that a request holds: a request that waits
 * behind it waits at most `lockWaitMs`, and no deadlock between the two can form. An attempt that still
 * loses a race for a lock (a wait past `lockWaitMs`, or a deadlock on a table the statements name in a
 * way not recognised) leaves nothing behind and is made again after a pause, up to `attempts` times.
 */
export async function runMigrations(pool: pg.Pool, migrationsFolder = MIGRATIONS_FOLDER, options: MigrationOptions = {}): Promise<void> {
  const { lockWaitMs = 500, attempts = 30, pauseMs = defaultPause, onRetry } = options;
  const migrations = readMigrationFiles({ migrationsFolder });
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
            await applyPending(client, migrations);
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

async function applyPending(client: pg.PoolClient, migrations: MigrationMeta[]): Promise<void> {
  await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
  await client.query(`CREATE TABLE IF NOT EXISTS ${JOURNAL} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
  const last = (await client.query<{ created_at: string }>(`SELECT created_at FROM ${JOURNAL} ORDER BY created_at DESC LIMIT 1`)).rows[0];
  const pending = migrations.filter((m) => !last || Number(last.created_at) < m.folderMillis);
  if (pending.length === 0) return;
  await client.query('BEGIN');
  try {
    const named = tablesNamed(pending.flatMap((m) => m.sql));
    const existing = (
      await client.query<{ name: string }>('SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL', [named])
    ).rows;
    if (existing.length > 0) await client.query(`LOCK TABLE ${existing.map((r) => r.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    for (const migration of pending) {
      for (const statement of migration.sql) if (statement.trim()) await client.query(statement);
      await client.query(`INSERT INTO ${JOURNAL} (hash, created_at) VALUES ($1, $2)`, [migration.hash, migration.folderMillis]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/**
 * The tables the statements change, index, reference, fill or put triggers on, in one fixed order (the
 * same for every instance), written as in the statements (quoted or not). Words that only look like a
 * table here (`ON DELETE`, `ON UPDATE`) are dropped by the caller, which keeps only existing tables.
 */
export function tablesNamed(statements: string[]): string[] {
  const name = String.raw`((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)`;
  const pattern = new RegExp(
    String.raw`\b(?:ALTER\s+TABLE(?:\s+IF\s+EXISTS)?(?:\s+ONLY)?|REFERENCES|ON|INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|DROP\s+TABLE(?:\s+IF\s+EXISTS)?)\s+` +
      name,
    'gi',
  );
  const found = new Set<string>();
  for (const statement of statements) {
    for (const match of statement.replace(/--[^\n]*/g, '').matchAll(pattern)) {
      const table = match[1]!;
      if (!/^(DELETE|UPDATE|CONFLICT|COMMIT|TABLE|SCHEMA|DATABASE)$/i.test(table))
        found.add(table.replace(/^"public"\./i, '').replace(/^public\./i, ''));
    }
  }
  return [...found].sort();
}

/** The SQLSTATE of a lost lock race, from the error or the one Drizzle wrapped it in. */
function lockRaceCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && LOST_LOCK_RACE.has(code)) return code;
  }
  return undefined;
}
