import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { ads } from './ads.tables.js';

const SPENT_TODAY_TEXT = `(CASE WHEN c.spend_day = ((now() AT TIME ZONE 'UTC')::date) THEN c.spend_today_millicents ELSE 0 END)`;
/** What a campaign (`c`) has drawn today: its row's day total, zero once the UTC day has turned (docs/decisions/0302). */
export const SPENT_TODAY = sql.raw(SPENT_TODAY_TEXT);
/**
 * The units a draw takes for `w.n` chargeable impressions: no more than what is left pays for, nor
 * than the daily budget leaves room for today. LEAST ignores a null (no budget, no daily budget).
 */
const UNITS = sql.raw(
  `LEAST(w.n, c.remaining_millicents / c.unit_millicents, CASE WHEN c.daily_budget_cents IS NULL THEN NULL ELSE GREATEST(0, c.daily_budget_cents * 1000 - ${SPENT_TODAY_TEXT}) / c.unit_millicents END)`,
);

/**
 * A viewer's counted impressions today of one campaign: the day's counts on their rows of its creatives
 * (docs/decisions/0296), each row looked up by its whole key. Charging compares it with the frequency
 * cap (serving compares the serves: servedCountToday).
 */
export function viewerCountToday(campaignId: SQL, viewerKey: SQL | string): SQL {
  return sql`(SELECT coalesce(sum(w.counted_today), 0) FROM ads pa JOIN ad_viewer_impressions w ON w.ad_id = pa.id AND w.viewer_key = ${viewerKey}
    WHERE pa.campaign_id = ${campaignId} AND w.counted_day = (now() AT TIME ZONE 'UTC')::date)`;
}

/**
 * How many times a campaign's creatives were served to a viewer today (UTC): the frequency cap compares
 * it with the cap before serving (docs/decisions/0302: a cap of 2 a day means 2 ads seen, not 2 charged).
 */
export function servedCountToday(campaignId: SQL, viewerKey: SQL | string): SQL {
  return sql`(SELECT coalesce(sum(w.served_today), 0) FROM ads pa JOIN ad_viewer_impressions w ON w.ad_id = pa.id AND w.viewer_key = ${viewerKey}
    WHERE pa.campaign_id = ${campaignId} AND w.served_day = (now() AT TIME ZONE 'UTC')::date)`;
}

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
  /** The viewer's network address (a keyed hash): one charged impression per creative and address per window. */
  addressKey: string;
  /** A known robot's user agent: never counted, tallied as invalid traffic for a campaign's creative. */
  bot: boolean;
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
 * The statement keeps every rule of the one-at-a-time write: live ads only, and the viewer's row of the ad
 * in `ad_viewer_impressions` decides on every instance whether an impression counts (once per ad and
 * viewer per window): an upsert for a house ad, an update of the row its serve wrote for a campaign's
 * creative (decision 0296). Rows are sorted by (ad, viewer) so two instances' upserts lock rows in the
 * same order; the update's order is the planner's, and a deadlock is written again (below).
 * Duplicates inside a batch are answered from the first one: counted at most once. Each ad of the batch
 * is looked up once, not once per impression.
 *
 * Campaigns are charged in the same statement (docs/decisions/0281): a counted impression of a campaign's
 * creative counts only if that creative was served to that viewer within the window and the viewer is
 * under the campaign's daily cap (viewerCountToday); the campaign's `remaining_millicents` goes down in
 * one UPDATE per campaign and batch, by at most what is left (`LEAST(wanted, remaining / unit)` units), under the row
 * lock that UPDATE takes: a budget is never overspent, whatever the number of batches or instances in
 * flight. Everything not counted for a live creative (robots, repeats, no served ad, over the cap) is
 * tallied as invalid in `ad_campaign_days` and never charged. A batch that meets a deadlock (two
 * instances drawing from the same campaigns in another order) is written again: the statement is atomic.
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

  record(adId: string, viewerKey: string, bot = false, addressKey = viewerKey): Promise<ImpressionOutcome> {
    // An id is one uuid whatever its letter case (the route accepts both): the batch finds repeats by
    // text, and one id in two cases made the statement touch a row twice and fail the whole batch.
    const id = adId.toLowerCase();
    return new Promise((resolve, reject) => {
      this.forming.push({ adId: id, viewerKey, addressKey, bot, resolve, reject });
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
    const unique = [...firsts.values()].sort((a, b) =>
      a.adId < b.adId ? -1 : a.adId > b.adId ? 1 : a.viewerKey < b.viewerKey ? -1 : a.viewerKey > b.viewerKey ? 1 : 0,
    );
    try {
      const result = await this.writeWithRetry(unique);
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

  private async writeWithRetry(unique: Waiting[]) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.statement(unique);
      } catch (err) {
        if (attempt >= 3 || (err as { code?: string }).code !== '40P01') throw err;
      }
    }
  }

  private statement(unique: Waiting[]) {
    const today = sql`(now() AT TIME ZONE 'UTC')::date`;
    const window = sql`make_interval(secs => ${this.windowSeconds})`;
    return this.db.execute<{ n: number; exists: boolean; recorded: boolean }>(sql`
      WITH input AS (
        SELECT i.ad_id, i.viewer_key, i.bot, i.address_key, i.n
        FROM unnest(${sql.param(unique.map((w) => w.adId))}::uuid[], ${sql.param(unique.map((w) => w.viewerKey))}::text[], ${sql.param(unique.map((w) => w.bot))}::boolean[],
          ${sql.param(unique.map((w) => w.addressKey))}::text[])
          WITH ORDINALITY AS i(ad_id, viewer_key, bot, address_key, n)
      ), ad AS (
        -- Each ad of the batch looked up once, with whether it is live and its campaign's terms, instead
        -- of once per impression in every step below (docs/performance.md).
        SELECT ${ads.id} AS id, ${ads.campaignId} AS campaign_id, camp.frequency_cap, camp.price_model, ${this.isLive} AS live
        FROM ${ads} LEFT JOIN ad_campaigns camp ON camp.id = ${ads.campaignId}
        WHERE ${ads.id} IN (SELECT ad_id FROM input)
      ), house_gate AS (
        -- A house ad's impression (no campaign: no serve to match, no cap to count) writes the viewer's
        -- row, or reopens it after the window.
        INSERT INTO ad_viewer_impressions AS v (ad_id, viewer_key, last_counted_at)
        SELECT input.ad_id, input.viewer_key, now() FROM input JOIN ad ON ad.id = input.ad_id
        WHERE ad.live AND NOT input.bot AND ad.campaign_id IS NULL
        ORDER BY input.n
        ON CONFLICT (ad_id, viewer_key) DO UPDATE SET last_counted_at = excluded.last_counted_at
          WHERE v.last_counted_at IS NULL OR v.last_counted_at <= excluded.last_counted_at - ${window}
        RETURNING v.ad_id, v.viewer_key
      ), paid_gate AS (
        -- A campaign creative's impression counts only on the row its serve wrote, within the window after
        -- that serve: one update of a row the serve has just touched (docs/decisions/0296).
        -- The day's count restarts on a new UTC day (the frequency cap reads only today's).
        UPDATE ad_viewer_impressions v SET last_counted_at = now(),
          counted_today = CASE WHEN v.counted_day = ${today} THEN v.counted_today + 1 ELSE 1 END, counted_day = ${today}
        FROM input JOIN ad ON ad.id = input.ad_id
        WHERE v.ad_id = input.ad_id AND v.viewer_key = input.viewer_key
          AND ad.live AND NOT input.bot AND ad.campaign_id IS NOT NULL
          AND v.served_at > now() - ${window}
          AND (v.last_counted_at IS NULL OR v.last_counted_at <= now() - ${window})
        RETURNING v.ad_id, v.viewer_key
      ), gate AS (
        SELECT ad_id, viewer_key FROM house_gate UNION ALL SELECT ad_id, viewer_key FROM paid_gate
      ), counted AS (
        INSERT INTO ad_impressions (ad_id, viewer_key) SELECT ad_id, viewer_key FROM gate RETURNING ad_id, viewer_key
      ), paid AS (
        -- The viewer's count so far today is the sum of their rows of the campaign's creatives as they
        -- were before this statement (each looked up by its whole key), plus their earlier ones in this batch.
        SELECT g.ad_id, g.viewer_key, ad.campaign_id, ad.frequency_cap,
          row_number() OVER (PARTITION BY ad.campaign_id, g.viewer_key ORDER BY g.ad_id)
            + CASE WHEN ad.frequency_cap IS NULL THEN 0
                ELSE ${viewerCountToday(sql`ad.campaign_id`, sql`g.viewer_key`)} END AS nth_today
        FROM gate g JOIN ad ON ad.id = g.ad_id AND ad.campaign_id IS NOT NULL
      ), eligible AS (
        SELECT ad_id, viewer_key, campaign_id, frequency_cap
        FROM paid WHERE frequency_cap IS NULL OR nth_today <= frequency_cap
      ), address_pick AS (
        -- One charged impression per CPM creative and network address per window (docs/decisions/0302),
        -- whatever the user agents, guests or accounts behind the address: one candidate per address here.
        SELECT DISTINCT ON (e.ad_id, i.address_key) e.ad_id, e.viewer_key, e.campaign_id, i.address_key
        FROM eligible e JOIN input i ON i.ad_id = e.ad_id AND i.viewer_key = e.viewer_key
        JOIN ad ON ad.id = e.ad_id AND ad.price_model = 'cpm'
        ORDER BY e.ad_id, i.address_key, e.viewer_key
      ), address_gate AS (
        INSERT INTO ad_address_charges AS g (ad_id, address_key, last_charged_at)
        SELECT ad_id, address_key, now() FROM address_pick ORDER BY ad_id, address_key
        ON CONFLICT (ad_id, address_key) DO UPDATE SET last_charged_at = excluded.last_charged_at
          WHERE g.last_charged_at <= excluded.last_charged_at - ${window}
        RETURNING g.ad_id, g.address_key
      ), chargeable AS (
        SELECT p.ad_id, p.viewer_key, p.campaign_id, row_number() OVER (PARTITION BY p.campaign_id ORDER BY p.ad_id, p.viewer_key) AS r
        FROM address_pick p JOIN address_gate g ON g.ad_id = p.ad_id AND g.address_key = p.address_key
      ), draw AS (
        -- A house campaign without a budget has remaining_millicents null: LEAST ignores the null, so
        -- every eligible impression is counted at its price, and the rest stays null (decision 0283).
        -- The daily budget holds here too: no more units than today's spend leaves room for, checked on
        -- the campaign's row under this UPDATE's lock (docs/decisions/0302).
        UPDATE ad_campaigns c
        SET remaining_millicents = c.remaining_millicents - ${UNITS} * c.unit_millicents,
            last_draw_units = ${UNITS},
            spend_today_millicents = ${SPENT_TODAY} + ${UNITS} * c.unit_millicents,
            spend_day = ${today}
        FROM (SELECT campaign_id, count(*) AS n FROM chargeable GROUP BY campaign_id) w
        WHERE c.id = w.campaign_id AND c.price_model = 'cpm'
        RETURNING c.id, c.last_draw_units, c.unit_millicents
      ), days AS (
        -- Invalid traffic with its reason (docs/decisions/0319): a robot; through the gate but past the
        -- frequency cap (in paid, not eligible); otherwise unmatched (no serve within the window, already
        -- counted within it). input and paid hold one row per (ad, viewer): the joins multiply nothing.
        INSERT INTO ad_campaign_days AS d (ad_id, day, campaign_id, viewable, invalid, invalid_robot, invalid_over_cap, invalid_unmatched, spend_millicents)
        SELECT ad.id, ${today}, ad.campaign_id,
          count(e.ad_id),
          count(*) FILTER (WHERE e.ad_id IS NULL),
          count(*) FILTER (WHERE e.ad_id IS NULL AND input.bot),
          count(*) FILTER (WHERE e.ad_id IS NULL AND NOT input.bot AND p.ad_id IS NOT NULL),
          count(*) FILTER (WHERE e.ad_id IS NULL AND NOT input.bot AND p.ad_id IS NULL),
          coalesce(sum(dr.unit_millicents) FILTER (WHERE ch.r <= dr.last_draw_units), 0)
        FROM input
        JOIN ad ON ad.id = input.ad_id AND ad.campaign_id IS NOT NULL AND ad.live
        LEFT JOIN eligible e ON e.ad_id = input.ad_id AND e.viewer_key = input.viewer_key
        LEFT JOIN paid p ON p.ad_id = input.ad_id AND p.viewer_key = input.viewer_key
        LEFT JOIN chargeable ch ON ch.ad_id = input.ad_id AND ch.viewer_key = input.viewer_key
        LEFT JOIN draw dr ON dr.id = ad.campaign_id
        GROUP BY ad.id, ad.campaign_id
        ON CONFLICT (ad_id, day) DO UPDATE SET viewable = d.viewable + excluded.viewable, invalid = d.invalid + excluded.invalid,
          invalid_robot = d.invalid_robot + excluded.invalid_robot, invalid_over_cap = d.invalid_over_cap + excluded.invalid_over_cap,
          invalid_unmatched = d.invalid_unmatched + excluded.invalid_unmatched,
          spend_millicents = d.spend_millicents + excluded.spend_millicents
      )
      SELECT input.n::int AS n, (ad.id IS NOT NULL) AS exists, (counted.ad_id IS NOT NULL) AS recorded
      FROM input
      LEFT JOIN ad ON ad.id = input.ad_id
      LEFT JOIN counted ON counted.ad_id = input.ad_id AND counted.viewer_key = input.viewer_key
    `);
  }
}
