import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { ads } from './ads.tables.js';

/** The most impressions one statement carries. */
export const MAX_IMPRESSION_BATCH = 1000;

export interface ImpressionOutcome {
  /** Whether the ad exists (404 otherwise). */
  exists: boolean;
  /** Whether this impression was counted (live ad, first from this viewer in the window). */
  recorded: boolean;
}

interface Waiting {
  adId: string;
  viewerKey: string;
  resolve: (outcome: ImpressionOutcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Impressions written together (group commit, docs/decisions/0172): each request joins the next batch
 * and is answered once that batch's one statement has committed, so `recorded: true` is never said of
 * an impression a crash can still lose. One batch is written at a time; requests arriving meanwhile
 * form the next one (no timer: an idle server writes at once, a busy one writes hundreds per statement).
 * A crash loses only impressions not yet answered: at most the batch being written and the one
 * forming, each at most MAX_IMPRESSION_BATCH.
 *
 * The statement keeps every rule of the one-at-a-time write: live ads only, and the gate row's upsert
 * in `ad_viewer_impressions` decides on every instance whether a viewer's impression counts (once per
 * ad and viewer per window). Rows are sorted by (ad, viewer) so two instances' batches lock gate rows
 * in the same order (no deadlock). Duplicates inside a batch are answered from the first one: counted
 * at most once.
 */
export class ImpressionBatcher {
  private forming: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    /** SQL condition: the ad (table `ads`) is live. */
    private readonly isLive: ReturnType<typeof sql>,
    private readonly windowSeconds: number,
  ) {}

  record(adId: string, viewerKey: string): Promise<ImpressionOutcome> {
    return new Promise((resolve, reject) => {
      this.forming.push({ adId, viewerKey, resolve, reject });
      if (!this.writing) void this.writeNext();
    });
  }

  private async writeNext(): Promise<void> {
    this.writing = true;
    try {
      while (this.forming.length > 0) {
        const batch = this.forming.splice(0, MAX_IMPRESSION_BATCH);
        await this.write(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    // First of each (ad, viewer) goes to the database; later ones in this batch are duplicates.
    const firsts = new Map<string, Waiting>();
    const duplicates: Waiting[] = [];
    for (const w of batch) {
      const key = `${w.adId}\n${w.viewerKey}`;
      if (firsts.has(key)) duplicates.push(w);
      else firsts.set(key, w);
    }
    const unique = [...firsts.values()].sort((a, b) => (a.adId < b.adId ? -1 : a.adId > b.adId ? 1 : a.viewerKey < b.viewerKey ? -1 : a.viewerKey > b.viewerKey ? 1 : 0));
    try {
      const result = await this.db.execute<{ n: number; exists: boolean; recorded: boolean }>(sql`
        WITH input AS (
          SELECT i.ad_id, i.viewer_key, i.n
          FROM unnest(${sql.param(unique.map((w) => w.adId))}::uuid[], ${sql.param(unique.map((w) => w.viewerKey))}::text[]) WITH ORDINALITY AS i(ad_id, viewer_key, n)
        ), gate AS (
          INSERT INTO ad_viewer_impressions AS v (ad_id, viewer_key, last_counted_at)
          SELECT input.ad_id, input.viewer_key, now() FROM input JOIN ${ads} ON ${ads.id} = input.ad_id
          WHERE ${this.isLive}
          ORDER BY input.n
          ON CONFLICT (ad_id, viewer_key) DO UPDATE SET last_counted_at = excluded.last_counted_at
            WHERE v.last_counted_at <= excluded.last_counted_at - make_interval(secs => ${this.windowSeconds})
          RETURNING v.ad_id, v.viewer_key
        ), counted AS (
          INSERT INTO ad_impressions (ad_id, viewer_key) SELECT ad_id, viewer_key FROM gate RETURNING ad_id, viewer_key
        )
        SELECT input.n::int AS n, (${ads.id} IS NOT NULL) AS exists, (counted.ad_id IS NOT NULL) AS recorded
        FROM input
        LEFT JOIN ${ads} ON ${ads.id} = input.ad_id
        LEFT JOIN counted ON counted.ad_id = input.ad_id AND counted.viewer_key = input.viewer_key
      `);
      const outcomes = new Map<string, ImpressionOutcome>();
      for (const row of result.rows) {
        const w = unique[Number(row.n) - 1]!;
        const outcome = { exists: Boolean(row.exists), recorded: Boolean(row.recorded) };
        outcomes.set(`${w.adId}\n${w.viewerKey}`, outcome);
        w.resolve(outcome);
      }
      for (const d of duplicates) {
        const first = outcomes.get(`${d.adId}\n${d.viewerKey}`);
        d.resolve({ exists: first?.exists ?? false, recorded: false });
      }
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
