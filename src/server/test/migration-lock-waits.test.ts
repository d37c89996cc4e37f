import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PoolClient } from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMigrations, tablesNamed } from '#server/db/migrate.js';
import { createTestDatabase, enginesFor, type TestDatabase } from '#server/test/test-app.js';

/** A migrations folder in Drizzle's layout holding the given migrations, in order. */
function migrationsFolder(statements: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'olympus-lock-race-'));
  mkdirSync(path.join(dir, 'meta'));
  const entries = statements.map((sql, idx) => {
    const tag = `${String(idx).padStart(4, '0')}_step`;
    writeFileSync(path.join(dir, `${tag}.sql`), sql);
    return { idx, version: '7', when: 1_700_000_000_000 + idx, tag, breakpoints: true };
  });
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
  return dir;
}

// A migration that waits for a table lock holds every request on that table behind it; it gives way
// after a short wait and tries again (docs/decisions/0307-rolling-upgrades-expand-and-contract.md). Only
// PostgreSQL has a second connection to hold a lock with.
describe.each(enginesFor('database').filter((e) => e === 'postgres'))('migrations against live traffic (%s)', (engine) => {
  let t: TestDatabase;
  let folder: string;
  let holder: PoolClient;

  beforeEach(async () => {
    t = await createTestDatabase(engine, { migrate: false });
    await t.database.pool.query('CREATE TABLE busy (id int PRIMARY KEY)');
    folder = migrationsFolder(['CREATE TABLE fresh (id int)', 'ALTER TABLE busy ADD COLUMN note text']);
    holder = await t.database.pool.connect();
    // A request of the running release, in the middle of a transaction that read the table.
    await holder.query('BEGIN');
    await holder.query('SELECT * FROM busy');
  });
  afterEach(async () => {
    await holder.query('ROLLBACK').catch(() => {});
    holder.release();
    await t.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  const columns = async () =>
    (
      await t.database.pool.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'busy' ORDER BY column_name`)
    ).rows.map((r) => r.column_name as string);

  it('gives way to a transaction holding the table, and applies everything once it ends', async () => {
    const retries: number[] = [];
    const migrated = runMigrations(t.database.pool, folder, {
      lockWaitMs: 50,
      pauseMs: () => 10,
      onRetry: (attempt) => {
        retries.push(attempt);
        // The request's transaction ends while the migration pauses between two attempts.
        if (attempt === 2) void holder.query('COMMIT');
      },
    });
    await migrated;
    expect(retries).toEqual([1, 2]);
    expect(await columns()).toEqual(['id', 'note']);
    const applied = await t.database.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(applied.rows[0].n).toBe(2);
  });

  it('never leaves a request waiting behind it for longer than one attempt waits', async () => {
    const migrated = runMigrations(t.database.pool, folder, { lockWaitMs: 200, attempts: 1000, pauseMs: () => 50 });
    // Once the migration is queued for the table, a new request queues behind it.
    await expect
      .poll(
        async () =>
          (await t.database.pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'busy'::regclass`)).rows[0]
            .n,
      )
      .toBe(1);
    // Another request of the running release, with the request lock timeout: it would fail if the
    // migration waited for as long as the transaction before it lasts.
    const other = await t.database.pool.connect();
    try {
      await other.query("SET lock_timeout = '2s'");
      await expect(other.query('SELECT count(*)::int AS n FROM busy')).resolves.toMatchObject({ rows: [{ n: 0 }] });
    } finally {
      other.release();
    }
    await holder.query('COMMIT');
    await migrated;
    expect(await columns()).toEqual(['id', 'note']);
  });

  it('is never the cause of a request failing as a deadlock victim: it locks every table first and gives way within a second', async () => {
    await t.database.pool.query('CREATE TABLE busy_too (id int PRIMARY KEY)');
    const both = migrationsFolder(['ALTER TABLE busy ADD COLUMN note text', 'ALTER TABLE busy_too ADD COLUMN note text']);
    try {
      // The request: holds busy_too (a write), and will want busy, which the migration takes first.
      await holder.query('ROLLBACK');
      await holder.query('BEGIN');
      await holder.query('INSERT INTO busy_too VALUES (1)');
      const retries: number[] = [];
      const migrated = runMigrations(t.database.pool, both, { pauseMs: () => 50, onRetry: (attempt) => retries.push(attempt) });
      await expect
        .poll(
          async () =>
            (await t.database.pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'busy_too'::regclass`))
              .rows[0].n,
        )
        .toBe(1);
      // Now the cycle: the request waits for busy, held by the migration, which waits for busy_too.
      await expect(holder.query('SELECT count(*)::int AS n FROM busy')).resolves.toMatchObject({ rows: [{ n: 0 }] });
      await holder.query('COMMIT');
      await migrated;
      expect(retries.length).toBeGreaterThan(0);
      expect(await columns()).toEqual(['id', 'note']);
    } finally {
      rmSync(both, { recursive: true, force: true });
    }
  });

  it('gives up with a clear error after its attempts, leaving nothing half applied', async () => {
    await expect(runMigrations(t.database.pool, folder, { lockWaitMs: 20, attempts: 3, pauseMs: () => 1 })).rejects.toThrow(
      /gave up after 3 attempts.*table lock \(55P03\)/,
    );
    await holder.query('COMMIT');
    expect(await columns()).toEqual(['id']);
    const fresh = await t.database.pool.query(`SELECT to_regclass('fresh') AS t`);
    expect(fresh.rows[0].t).toBeNull();
  });
});

describe('the tables a migration locks first', () => {
  it('are the tables its statements change, index, reference or fill, in one order, without the words that only look like one', () => {
    expect(
      tablesNamed([
        'ALTER TABLE "users" ADD COLUMN "closure_held_at" timestamp with time zone;',
        'ALTER TABLE "late_payment_refunds" ADD CONSTRAINT "fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;',
        'CREATE INDEX IF NOT EXISTS "ads_by_campaign" ON "ads" USING btree ("campaign_id");',
        '-- ALTER TABLE "commented_out" DROP COLUMN "x"\nINSERT INTO ad_serves (ad_id) SELECT id FROM ads ON CONFLICT DO NOTHING;',
      ]),
    ).toEqual(['"ads"', '"late_payment_refunds"', '"payments"', '"users"', 'ad_serves']);
  });
});
