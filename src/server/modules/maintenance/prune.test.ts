import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '#server/test/test-app.js';
import { pruneDeadRows } from './prune.js';

describe.each(ENGINES)('pruning dead bookkeeping rows on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes rate-limit counters and ad markers older than a day, and keeps everything recent', async () => {
    const db = t.database.db;
    const [ad] = (
      await db.execute<{ id: string }>(sql`
        INSERT INTO ads (placement, title, target_url) VALUES ('home-banner', 'Prune test', 'https://example.com/') RETURNING id`)
    ).rows;
    await db.execute(sql`
      INSERT INTO rate_limit_counters (key, window_start, count) VALUES
        ('prune:old', now() - interval '25 hours', 3),
        ('prune:recent', now() - interval '2 hours', 3),
        ('prune:live', now(), 1)`);
    await db.execute(sql`
      INSERT INTO ad_viewer_impressions (ad_id, viewer_key, last_counted_at) VALUES
        (${ad!.id}, 'h:old', now() - interval '2 days'),
        (${ad!.id}, 'h:recent', now() - interval '10 minutes')`);
    await db.execute(sql`INSERT INTO ad_impressions (ad_id, viewer_key, created_at) VALUES (${ad!.id}, 'h:old', now() - interval '2 days')`);

    const result = await pruneDeadRows(db);
    expect(result.rateLimitCounters).toBeGreaterThanOrEqual(1);
    expect(result.adViewerImpressions).toBe(1);

    const counters = await db.execute<{ key: string }>(sql`SELECT key FROM rate_limit_counters WHERE key LIKE 'prune:%' ORDER BY key`);
    expect(counters.rows.map((r) => r.key)).toEqual(['prune:live', 'prune:recent']);
    const markers = await db.execute<{ viewer_key: string }>(sql`SELECT viewer_key FROM ad_viewer_impressions WHERE ad_id = ${ad!.id}`);
    expect(markers.rows.map((r) => r.viewer_key)).toEqual(['h:recent']);
    // The counted impression itself is history and stays.
    const history = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ad_impressions WHERE ad_id = ${ad!.id}`);
    expect(history.rows[0]!.n).toBe(1);

    // Running again finds nothing more to delete.
    expect(await pruneDeadRows(db)).toMatchObject({ rateLimitCounters: 0, adViewerImpressions: 0, unconfirmedStatusSubscribers: 0 });
  });
});
