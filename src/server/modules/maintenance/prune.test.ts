import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { pruneDeadRows } from './prune.js';

describe.each(enginesFor('database'))('pruning dead bookkeeping rows on %s', (engine) => {
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
    await db.execute(
      sql`INSERT INTO ad_impressions (ad_id, viewer_key, created_at) VALUES (${ad!.id}, 'h:old', now() - interval '2 days')`,
    );

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

  it("deletes viewers' delivery rows and charged-click markers past their use, and keeps what caps and charging still need", async () => {
    const db = t.database.db;
    // A running house campaign (no owner, no money: decision 0283) capped at one impression per viewer a day.
    const [campaign] = (
      await db.execute<{ id: string }>(sql`
        INSERT INTO ad_campaigns (house, name, placements, starts_at, ends_at, price_model, price_cents, unit_millicents, frequency_cap)
        VALUES (true, 'Prune campaign', ARRAY['patch-notes'], now() - interval '1 hour', now() + interval '7 days', 'cpm', 1000, 1000, 1) RETURNING id`)
    ).rows;
    const [creative] = (
      await db.execute<{ id: string }>(sql`
        INSERT INTO ads (placement, title, target_url, campaign_id) VALUES ('patch-notes', 'Prune creative', 'https://example.com/', ${campaign!.id}) RETURNING id`)
    ).rows;
    const headers = { 'user-agent': 'prune-viewer' };
    // Served, then charged: the viewer's row holds the serve and today's count of one.
    expect((await call(t, 'GET', '/api/ads?placement=patch-notes', { headers })).json.ad?._id).toBe(creative!.id);
    expect((await call(t, 'POST', `/api/ads/${creative!.id}/impression`, { headers })).json).toEqual({ recorded: true });

    await db.execute(sql`
      INSERT INTO ad_viewer_impressions (ad_id, viewer_key, served_at, last_counted_at, counted_day, counted_today) VALUES
        (${creative!.id}, 'h:serve-old', now() - interval '25 hours', NULL, NULL, 0),
        (${creative!.id}, 'h:serve-recent', now() - interval '20 minutes', NULL, NULL, 0),
        (${creative!.id}, 'h:counted-old', now() - interval '3 days', now() - interval '2 days', (now() AT TIME ZONE 'UTC')::date - 2, 3),
        (${creative!.id}, 'h:served-again', now() - interval '5 minutes', now() - interval '2 days', (now() AT TIME ZONE 'UTC')::date - 2, 3)`);
    await db.execute(sql`
      INSERT INTO ad_paid_clicks (ad_id, viewer_key, last_charged_at) VALUES
        (${creative!.id}, 'h:click-old', now() - interval '2 days'),
        (${creative!.id}, 'h:click-recent', now() - interval '5 minutes')`);

    await db.execute(sql`
      INSERT INTO ad_address_charges (ad_id, address_key, last_charged_at) VALUES
        (${creative!.id}, 'a:old', now() - interval '2 days'),
        (${creative!.id}, 'a:recent', now() - interval '5 minutes')`);

    const result = await pruneDeadRows(db);
    expect(result).toMatchObject({ adViewerImpressions: 2, adPaidClicks: 1, adAddressCharges: 1 });
    const addresses = await db.execute<{ address_key: string }>(
      sql`SELECT address_key FROM ad_address_charges WHERE ad_id = ${creative!.id} AND address_key IN ('a:old', 'a:recent')`,
    );
    expect(addresses.rows.map((r) => r.address_key)).toEqual(['a:recent']);

    // The browser's row of a moment ago, the serve of 20 minutes ago and the old count served again stay;
    // a serve of yesterday and a count of two days ago go.
    const rows = await db.execute<{ viewer_key: string }>(
      sql`SELECT viewer_key FROM ad_viewer_impressions WHERE ad_id = ${creative!.id} ORDER BY viewer_key`,
    );
    expect(rows.rows.map((r) => r.viewer_key).filter((k) => k !== 'h:serve-recent' && k !== 'h:served-again')).toEqual([
      expect.stringMatching(/^h:[A-Za-z0-9_-]{20,}$/),
    ]);
    expect(rows.rows.map((r) => r.viewer_key)).toEqual(expect.arrayContaining(['h:serve-recent', 'h:served-again']));
    const clicks = await db.execute<{ viewer_key: string }>(sql`SELECT viewer_key FROM ad_paid_clicks WHERE ad_id = ${creative!.id}`);
    expect(clicks.rows.map((r) => r.viewer_key)).toEqual(['h:click-recent']);

    // The viewer's cap still holds after pruning: the campaign is not served to them again today,
    // while another viewer still gets it.
    expect((await call(t, 'GET', '/api/ads?placement=patch-notes', { headers })).json.ad?._id).not.toBe(creative!.id);
    // (Another browser on the same address is the same anonymous viewer, docs/decisions/0302: a signed-in user is another.)
    const other = await registerUser(t);
    expect((await call(t, 'GET', '/api/ads?placement=patch-notes', { token: other.token })).json.ad?._id).toBe(creative!.id);
    // The spend counted stays: the report is history.
    const days = await db.execute<{ viewable: number }>(sql`SELECT viewable FROM ad_campaign_days WHERE campaign_id = ${campaign!.id}`);
    expect(days.rows).toEqual([{ viewable: 1 }]);

    expect(await pruneDeadRows(db)).toMatchObject({ adViewerImpressions: 0, adPaidClicks: 0, adAddressCharges: 0 });
  });
});
