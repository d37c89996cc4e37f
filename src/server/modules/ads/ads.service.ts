import { createHmac } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  AD_IMPRESSION_WINDOW_MS,
  AD_PACING_HEAD_START_SECONDS,
  type AdDayStats,
  type AdPlacement,
  type PublicAd,
  type StaffAd,
} from '#shared/schemas/ads.js';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { parseIPv4, parseIPv6 } from '#server/modules/webhooks/address-policy.js';
import { ads, type AdRow } from './ads.tables.js';
import { adImagePath, type AdImageStore } from './ad-images.js';
import { CAMPAIGN_RUNNING, isLive, TODAY } from './ad-sql.js';
import { ImpressionBatcher, servedCountToday, SPENT_TODAY } from './impression-batcher.js';
import { ServeBatcher } from './serve-batcher.js';
import { adStats, createStaffAd, listStaffAds, updateStaffAd, type CreateAd, type StaffAdDeps, type UpdateAd } from './staff-ads.js';

export { CAMPAIGN_RUNNING, isLive, TODAY } from './ad-sql.js';
export type { UpdateAd } from './staff-ads.js';

/** Who saw or clicked an ad, as a stable key: the account, the guest, or a keyed hash of the network address. */
export interface Viewer {
  userId: string | null;
  guestId: string | null;
  ip: string;
  userAgent: string;
}

/**
 * Where a click on an ad may go (docs/decisions/0302): the target staff last approved, unless the
 * creative was rejected since; null (404) for a creative never approved.
 */
const REDIRECT_TARGET = sql`(CASE WHEN ${ads.reviewStatus} = 'rejected' THEN NULL ELSE ${ads.approvedTargetUrl} END)`;

/**
 * The network a request comes from, as the paid limits count it (docs/decisions/0302): an IPv4 address
 * (also when it arrives IPv4-mapped), or the /64 of an IPv6 address (one subscriber's whole network: a
 * device picks a new address in it at will). Anything else is kept as it is.
 */
export function networkOf(ip: string): string {
  if (parseIPv4(ip) !== null) return ip;
  const g = parseIPv6(ip);
  if (!g) return ip;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/**
 * Known robots by user agent (crawlers, link previews, command-line clients): their impressions and
 * clicks are never counted or charged; on a campaign's creative they are tallied as invalid traffic.
 */
const BOT_USER_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|python-requests|python-urllib|curl\/|wget\/|libwww|httpie|scrapy|phantomjs|lighthouse/i;

export function isBotUserAgent(userAgent: string): boolean {
  return userAgent === '' ? false : BOT_USER_AGENT.test(userAgent);
}

const WINDOW_SECONDS = AD_IMPRESSION_WINDOW_MS / 1000;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export function toPublicAd(row: AdRow): PublicAd {
  return {
    _id: row.id,
    placement: row.placement as AdPlacement,
    kind: row.kind as PublicAd['kind'],
    title: row.title,
    body: row.body,
    // Our copy, taken at approval (docs/decisions/0303): never the advertiser's address.
    imageUrl: row.approvedImageId ? adImagePath(row.approvedImageId) : null,
    imageAlt: row.imageAlt,
    displayHost: hostOf(row.approvedTargetUrl ?? row.targetUrl),
    clickUrl: `/api/ads/${row.id}/click`,
  };
}

export class AdsService {
  private readonly viewerHashKey: Buffer;
  private readonly impressions: ImpressionBatcher;
  private readonly serves: ServeBatcher;
  private readonly staff: StaffAdDeps;

  constructor(
    private readonly db: Db,
    /** Server-side secret; anonymous viewers and network addresses are keyed by an HMAC under a key derived from it. */
    secret: Uint8Array,
    private readonly images: AdImageStore,
  ) {
    // A dedicated key, so the hash reveals nothing about the signing secret it is derived from.
    this.viewerHashKey = createHmac('sha256', Buffer.from(secret)).update('olympus/ad-viewer/v1').digest();
    this.impressions = new ImpressionBatcher(db, isLive, WINDOW_SECONDS);
    this.serves = new ServeBatcher(db);
    this.staff = { db, images };
  }

  /**
   * `u:`, `g:` or `h:` (a keyed hash of the network address: the raw IP is never stored, and the hash
   * cannot be reversed without the key). The user agent is not part of it: it is whatever the client
   * says, and rotating it made every request a new viewer (docs/decisions/0302).
   */
  viewerKey(viewer: Viewer): string {
    if (viewer.userId) return `u:${viewer.userId}`;
    if (viewer.guestId) return `g:${viewer.guestId}`;
    return `h:${this.networkDigest(viewer.ip)}`;
  }

  /** `a:` and a keyed hash of the viewer's network (networkOf): what the paid limits per address count. */
  addressKey(viewer: Viewer): string {
    return `a:${this.networkDigest(viewer.ip)}`;
  }

  private networkDigest(ip: string): string {
    return createHmac('sha256', this.viewerHashKey).update(networkOf(ip)).digest('base64url');
  }

  /**
   * Whether a guest session is old enough to be a paid viewer (docs/decisions/0302): a guest costs one
   * request to make, so a guest minted minutes ago is served house ads only.
   */
  async guestIsPaidViewer(sessionId: string, minAgeMs: number): Promise<boolean> {
    const result = await this.db.execute<{ old: boolean }>(sql`
      SELECT created_at <= now() - make_interval(secs => ${minAgeMs / 1000}) AS old FROM sessions WHERE id = ${sessionId}`);
    return Boolean(result.rows[0]?.old);
  }

  /** An approved ad image (our copy), or null when no ad uses it. */
  image(id: string) {
    return this.images.read(this.db, id);
  }

  /**
   * One ad for the placement: a running campaign's approved creative when one is eligible for this viewer
   * (its placements, dates, budget left, pacing of its daily budget, the viewer's daily cap), chosen at
   * random among the paid campaigns first and among house campaigns only when no paid one is eligible
   * (docs/decisions/0283: house campaigns never take a paid campaign's impression); otherwise a live house ad drawn in proportion to its weight; null when there is none. Serving
   * a campaign's creative records it for this viewer (an impression without a served ad is invalid
   * traffic) and counts it as served, in a batch (ServeBatcher) that has committed before the ad is
   * answered. Robots get house ads only.
   */
  async pickForPlacement(placement: AdPlacement, viewerKey: string | null = null, bot = false): Promise<PublicAd | null> {
    if (viewerKey !== null && !bot) {
      const paid = await this.db.execute<{
        id: string;
        campaign_id: string;
        kind: string;
        title: string;
        body: string;
        image_id: string | null;
        image_alt: string;
        target_url: string;
      }>(sql`
        WITH eligible AS MATERIALIZED (
          -- The running campaigns on this placement that pacing and the viewer's cap still allow, each
          -- checked once: as one join with the creatives, the planner checked pacing and the cap for every
          -- pair of creative and campaign (docs/performance.md).
          -- The cap counts what this viewer was served today, not what was charged (docs/decisions/0302).
          SELECT c.id, c.house FROM ad_campaigns c
          WHERE ${placement} = ANY (c.placements) AND ${CAMPAIGN_RUNNING}
            AND (c.daily_budget_cents IS NULL OR ${SPENT_TODAY}
              < c.daily_budget_cents * 1000 * LEAST(1.0, (extract(epoch FROM (now() AT TIME ZONE 'UTC') - date_trunc('day', now() AT TIME ZONE 'UTC')) + ${AD_PACING_HEAD_START_SECONDS}) / 86400.0))
            AND (c.frequency_cap IS NULL OR ${servedCountToday(sql`c.id`, viewerKey)} < c.frequency_cap)
        )
        SELECT ${ads.id} AS id, ${ads.campaignId} AS campaign_id, ${ads.kind} AS kind, ${ads.title} AS title, ${ads.body} AS body,
          ${ads.approvedImageId} AS image_id, ${ads.imageAlt} AS image_alt, ${ads.approvedTargetUrl} AS target_url
        FROM eligible c JOIN ${ads} ON ${ads.campaignId} = c.id
        WHERE ${isLive}
        ORDER BY c.house, random()
        LIMIT 1
      `);
      const row = paid.rows[0];
      if (row) {
        await this.serves.record(row.id, row.campaign_id, viewerKey);
        return {
          _id: row.id,
          placement,
          kind: row.kind as PublicAd['kind'],
          title: row.title,
          body: row.body,
          imageUrl: row.image_id ? adImagePath(row.image_id) : null,
          imageAlt: row.image_alt,
          displayHost: hostOf(row.target_url),
          clickUrl: `/api/ads/${row.id}/click`,
        };
      }
    }
    // Efraimidis–Spirakis: the smallest -ln(U)/weight wins with probability weight / sum of weights.
    const rows = await this.db
      .select()
      .from(ads)
      .where(and(eq(ads.placement, placement), isNull(ads.campaignId), isLive))
      .orderBy(sql`-ln(1.0 - random()) / ${ads.weight}`)
      .limit(1);
    return rows[0] ? toPublicAd(rows[0]) : null;
  }

  /**
   * Counts one impression when the ad is live and this viewer has no counted impression of it in the
   * last 30 minutes; 404 when the ad does not exist. Written in batches (ImpressionBatcher: one
   * statement for all the impressions that arrive while the previous batch is written), answered once
   * its batch has committed. Answers whether it counted.
   */
  async recordImpression(adId: string, viewerKey: string, bot = false, addressKey = viewerKey): Promise<boolean> {
    const outcome = await this.impressions.record(adId, viewerKey, bot, addressKey);
    if (!outcome.exists) throw notFound('Ad not found');
    return outcome.recorded;
  }

  /**
   * Records a click and answers where it goes: the target staff last approved, the only place we ever
   * redirect to (docs/decisions/0302). A creative never approved, or rejected, has none: 404, like an ad
   * that does not exist, so our origin never redirects to an address nobody reviewed. An approved
   * creative of a stopped or ended campaign, or one edited and waiting for review, still goes to its
   * last approved target (the visitor saw that ad), but only a live ad's click counts.
   *
   * A click on a CPC campaign's creative is charged when all of these hold, in one statement: it was
   * served to this viewer within the window; this viewer has no charged click of it in the window; no
   * charged unit of it came from this network address in the window (`ad_address_charges`); what is
   * left pays for it; and today's spend plus this click stays within the daily budget. The last two are
   * checked on the campaign's row under the lock the draw takes, so parallel clicks never overspend
   * either budget; a click past them still redirects.
   */
  async recordClick(adId: string, viewerKey: string, addressKey = viewerKey): Promise<{ targetUrl: string; counted: boolean }> {
    const window = sql`make_interval(secs => ${WINDOW_SECONDS})`;
    const result = await this.db.execute<{ target_url: string | null; counted: boolean }>(sql`
      WITH ad AS (
        SELECT ${ads.id} AS id, ${REDIRECT_TARGET} AS target_url, ${ads.campaignId} AS campaign_id, ${isLive} AS live FROM ${ads} WHERE ${ads.id} = ${adId}
      ), click AS (
        INSERT INTO ad_clicks (ad_id, viewer_key) SELECT id, ${viewerKey} FROM ad WHERE live RETURNING ad_id
      ), paid_gate AS (
        INSERT INTO ad_paid_clicks AS p (ad_id, viewer_key, last_charged_at)
        SELECT ad.id, ${viewerKey}, now() FROM ad JOIN ad_campaigns c ON c.id = ad.campaign_id AND c.price_model = 'cpc'
        WHERE ad.live AND EXISTS (SELECT 1 FROM ad_viewer_impressions s WHERE s.ad_id = ad.id AND s.viewer_key = ${viewerKey} AND s.served_at > now() - ${window})
        ON CONFLICT (ad_id, viewer_key) DO UPDATE SET last_charged_at = excluded.last_charged_at
          WHERE p.last_charged_at <= excluded.last_charged_at - ${window}
        RETURNING p.ad_id
      ), address_gate AS (
        INSERT INTO ad_address_charges AS g (ad_id, address_key, last_charged_at)
        SELECT ad_id, ${addressKey}, now() FROM paid_gate
        ON CONFLICT (ad_id, address_key) DO UPDATE SET last_charged_at = excluded.last_charged_at
          WHERE g.last_charged_at <= excluded.last_charged_at - ${window}
        RETURNING g.ad_id
      ), draw AS (
        UPDATE ad_campaigns c SET remaining_millicents = c.remaining_millicents - c.unit_millicents, last_draw_units = 1,
          spend_today_millicents = ${SPENT_TODAY} + c.unit_millicents, spend_day = ${TODAY}
        FROM ad WHERE c.id = ad.campaign_id AND EXISTS (SELECT 1 FROM address_gate)
          AND (c.remaining_millicents IS NULL OR c.remaining_millicents >= c.unit_millicents)
          AND (c.daily_budget_cents IS NULL OR ${SPENT_TODAY} + c.unit_millicents <= c.daily_budget_cents * 1000)
        RETURNING c.unit_millicents
      ), days AS (
        INSERT INTO ad_campaign_days AS d (ad_id, day, campaign_id, clicks, spend_millicents)
        SELECT ad.id, ${TODAY}, ad.campaign_id, 1, coalesce((SELECT unit_millicents FROM draw), 0) FROM ad WHERE ad.campaign_id IS NOT NULL AND ad.live
        ON CONFLICT (ad_id, day) DO UPDATE SET clicks = d.clicks + 1, spend_millicents = d.spend_millicents + excluded.spend_millicents
      )
      SELECT target_url, EXISTS (SELECT 1 FROM click) AS counted FROM ad
    `);
    const row = result.rows[0];
    if (!row?.target_url) throw notFound('Ad not found');
    return { targetUrl: row.target_url, counted: row.counted };
  }

  /** Where a click on an ad goes, without counting (for clicks over the rate limit and robots): the same rule as recordClick. */
  async targetOf(adId: string): Promise<{ targetUrl: string }> {
    const rows = await this.db
      .select({ targetUrl: sql<string | null>`${REDIRECT_TARGET}` })
      .from(ads)
      .where(eq(ads.id, adId))
      .limit(1);
    const targetUrl = rows[0]?.targetUrl;
    if (!targetUrl) throw notFound('Ad not found');
    return { targetUrl };
  }

  // ---- Staff: house ads and daily stats (staff-ads.ts) ------------------------------------------------

  list(): Promise<StaffAd[]> {
    return listStaffAds(this.staff);
  }

  /** A house ad is staff's own and approved as it is saved (its image is taken now, docs/decisions/0303). */
  create(input: CreateAd, staffUserId: string): Promise<StaffAd> {
    return createStaffAd(this.staff, input, staffUserId);
  }

  update(id: string, change: UpdateAd, staffUserId: string): Promise<StaffAd> {
    return updateStaffAd(this.staff, id, change, staffUserId);
  }

  /** Impressions, unique viewers, clicks and click-through per ad and UTC day, for the last `days` days. */
  stats(days: number, adId?: string): Promise<AdDayStats[]> {
    return adStats(this.staff, days, adId);
  }
}
