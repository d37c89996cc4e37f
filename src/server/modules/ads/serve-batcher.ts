import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';

/** The most serves one statement carries. */
export const MAX_SERVE_BATCH = 1000;

interface Waiting {
  adId: string;
  campaignId: string;
  viewerKey: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The served records of campaign creatives, written together (group commit, like impressions:
 * docs/decisions/0172). Serving a campaign's creative writes when it was served on the viewer's row of
 * that ad (`ad_viewer_impressions.served_at`, which makes its impression and click valid:
 * docs/decisions/0296), and counts the serve on that row's day (`served_today`: the frequency cap counts
 * serves, docs/decisions/0302) and adds one to the creative's served count of the day (`ad_campaign_days`). Written one serve at a time, every serve of a creative updated the same day row,
 * and the row lock held until each commit made serving one creative a queue of commits (docs/performance.md).
 * Here each serve joins the next batch and is answered once that batch's one statement has committed, so
 * the ad is never shown before its served record exists; a creative's day row is updated once per batch.
 * Rows are written in (ad, viewer) and ad order, and a batch that meets a deadlock is written again.
 */
export class ServeBatcher {
  private forming: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  record(adId: string, campaignId: string, viewerKey: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.forming.push({ adId, campaignId, viewerKey, resolve, reject });
      if (!this.writing) void this.writeNext();
    });
  }

  private async writeNext(): Promise<void> {
    this.writing = true;
    try {
      while (this.forming.length > 0) {
        const batch = this.forming.splice(0, MAX_SERVE_BATCH);
        try {
          await this.writeWithRetry(batch);
          for (const w of batch) w.resolve();
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeWithRetry(batch: Waiting[]) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.statement(batch);
      } catch (err) {
        if (attempt >= 3 || (err as { code?: string }).code !== '40P01') throw err;
      }
    }
  }

  private statement(batch: Waiting[]) {
    return this.db.execute(sql`
      WITH input AS (
        SELECT i.ad_id, i.campaign_id, i.viewer_key
        FROM unnest(${sql.param(batch.map((w) => w.adId))}::uuid[], ${sql.param(batch.map((w) => w.campaignId))}::uuid[], ${sql.param(batch.map((w) => w.viewerKey))}::text[])
          AS i(ad_id, campaign_id, viewer_key)
      ), serve AS (
        -- The day's serves count towards the frequency cap (docs/decisions/0302); a new UTC day restarts it.
        INSERT INTO ad_viewer_impressions AS v (ad_id, viewer_key, served_at, served_day, served_today)
        SELECT ad_id, viewer_key, now(), (now() AT TIME ZONE 'UTC')::date, count(*) FROM input GROUP BY ad_id, viewer_key ORDER BY ad_id, viewer_key
        ON CONFLICT (ad_id, viewer_key) DO UPDATE SET served_at = excluded.served_at, served_day = excluded.served_day,
          served_today = CASE WHEN v.served_day = excluded.served_day THEN v.served_today + excluded.served_today ELSE excluded.served_today END
      )
      INSERT INTO ad_campaign_days AS d (ad_id, day, campaign_id, served)
      SELECT ad_id, (now() AT TIME ZONE 'UTC')::date, campaign_id, count(*) FROM input GROUP BY ad_id, campaign_id ORDER BY ad_id
      ON CONFLICT (ad_id, day) DO UPDATE SET served = d.served + excluded.served
    `);
  }
}
