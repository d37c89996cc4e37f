import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, runMigrations } from '#server/db/migrate.js';
import { createTestDatabase, enginesFor, type TestDatabase } from '#server/test/test-app.js';

/** The migrations folder as it was up to (and including) migration `last`. */
function migrationsUpTo(last: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'olympus-migrations-'));
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

// Served records and cap counts move onto the viewer's row of the ad (docs/decisions/0296): a database
// that has them when it is updated keeps every serve inside its window and every cap of today.
describe.each(enginesFor('database'))('migration 0035: one delivery row per ad and viewer (%s)', (engine) => {
  let t: TestDatabase;
  let oldFolder: string;

  beforeAll(async () => {
    t = await createTestDatabase(engine, { migrate: false });
    oldFolder = migrationsUpTo(34);
    await runMigrations(t.database.pool, oldFolder);
  });
  afterAll(async () => {
    await t.dispose();
    rmSync(oldFolder, { recursive: true, force: true });
  });

  it("moves served records and today's cap counts onto the viewer's rows, and drops the old tables", async () => {
    const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);
    const campaign = (
      await q(`INSERT INTO ad_campaigns (house, name, placements, starts_at, ends_at, price_model, price_cents, unit_millicents, frequency_cap)
        VALUES (true, 'Migrated', ARRAY['home-banner'], now() - interval '1 hour', now() + interval '7 days', 'cpm', 1000, 1000, 3) RETURNING id`)
    ).rows[0].id as string;
    const [first, second] = (
      await q(
        `INSERT INTO ads (placement, title, target_url, campaign_id) VALUES
        ('home-banner', 'One', 'https://example.com/', $1), ('home-banner', 'Two', 'https://example.com/', $1) RETURNING id`,
        [campaign],
      )
    ).rows.map((r) => r.id as string) as [string, string];
    // h:a was served the first creative and counted twice today (and once two days ago); h:b was only
    // served the second one, 10 minutes ago.
    await q(`INSERT INTO ad_viewer_impressions (ad_id, viewer_key, last_counted_at) VALUES ($1, 'h:a', now() - interval '5 minutes')`, [
      first,
    ]);
    await q(
      `INSERT INTO ad_serves (ad_id, viewer_key, served_at) VALUES ($1, 'h:a', now() - interval '6 minutes'), ($2, 'h:b', now() - interval '10 minutes')`,
      [first, second],
    );
    await q(
      `INSERT INTO ad_campaign_caps (campaign_id, viewer_key, day, impressions) VALUES
      ($1, 'h:a', (now() AT TIME ZONE 'UTC')::date, 2), ($1, 'h:a', (now() AT TIME ZONE 'UTC')::date - 2, 1)`,
      [campaign],
    );

    await runMigrations(t.database.pool);

    const rows = (
      await q(`SELECT ad_id, viewer_key, last_counted_at IS NOT NULL AS counted, now() - served_at < interval '11 minutes' AS served_recently,
          counted_day = (now() AT TIME ZONE 'UTC')::date AS today, counted_today
        FROM ad_viewer_impressions ORDER BY viewer_key`)
    ).rows;
    expect(rows).toEqual([
      { ad_id: first, viewer_key: 'h:a', counted: true, served_recently: true, today: true, counted_today: 2 },
      { ad_id: second, viewer_key: 'h:b', counted: false, served_recently: true, today: null, counted_today: 0 },
    ]);
    const tables = (
      await q(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('ad_serves', 'ad_campaign_caps')`)
    ).rows[0].n;
    expect(tables).toBe(0);
    // A row with neither a serve nor a count means nothing, and the database refuses it.
    await expect(q(`INSERT INTO ad_viewer_impressions (ad_id, viewer_key) VALUES ($1, 'h:c')`, [first])).rejects.toThrow(
      /served_or_counted/,
    );
  });
});
