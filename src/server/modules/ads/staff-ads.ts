import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { adRuleIssues, type AdDayStats, type AdPlacement, type createAdBodySchema, type StaffAd } from '#shared/schemas/ads.js';
import type { Db } from '#server/db/client.js';
import { badRequest, notFound } from '#server/errors.js';
import type { AdImageStore } from './ad-images.js';
import { isLive } from './ad-sql.js';
import { ads, type AdRow } from './ads.tables.js';

export type CreateAd = z.output<typeof createAdBodySchema>;
export type UpdateAd = Partial<CreateAd>;

/** What the staff's house-ad calls are given by AdsService. */
export interface StaffAdDeps {
  db: Db;
  images: AdImageStore;
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function toStaffAd(row: AdRow & { live: boolean }): StaffAd {
  return {
    _id: row.id,
    placement: row.placement as AdPlacement,
    kind: row.kind as StaffAd['kind'],
    title: row.title,
    body: row.body,
    imageUrl: row.imageUrl,
    imageAlt: row.imageAlt,
    targetUrl: row.targetUrl,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    weight: row.weight,
    active: row.active,
    live: row.live,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---- Staff ------------------------------------------------------------------------------------------

export async function listStaffAds(deps: StaffAdDeps): Promise<StaffAd[]> {
  const rows = await deps.db
    .select({ ad: ads, live: sql<boolean>`${isLive}` })
    .from(ads)
    .where(isNull(ads.campaignId))
    .orderBy(ads.placement, desc(ads.createdAt));
  return rows.map((r) => toStaffAd({ ...r.ad, live: r.live }));
}

async function getStaffAd(deps: StaffAdDeps, id: string): Promise<StaffAd> {
  // House ads only: a campaign's creatives change through their campaign and staff review.
  const rows = await deps.db
    .select({ ad: ads, live: sql<boolean>`${isLive}` })
    .from(ads)
    .where(and(eq(ads.id, id), isNull(ads.campaignId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound('Ad not found');
  return toStaffAd({ ...row.ad, live: row.live });
}

/**
 * A house ad is staff's own and approved as it is saved: its target is the approved one, and its
 * image is fetched and kept now (docs/decisions/0303), so it too is served from our origin.
 */
export async function createStaffAd(deps: StaffAdDeps, input: CreateAd, staffUserId: string): Promise<StaffAd> {
  const imageId = input.kind === 'image' && input.imageUrl ? await deps.images.take(deps.db, input.imageUrl) : null;
  const [row] = await deps.db
    .insert(ads)
    .values({
      placement: input.placement,
      kind: input.kind,
      title: input.title,
      body: input.body,
      imageUrl: input.kind === 'image' ? input.imageUrl : null,
      imageAlt: input.kind === 'image' ? input.imageAlt : '',
      targetUrl: input.targetUrl,
      approvedTargetUrl: input.targetUrl,
      approvedImageId: imageId,
      startsAt: input.startsAt ? new Date(input.startsAt) : null,
      endsAt: input.endsAt ? new Date(input.endsAt) : null,
      weight: input.weight,
      active: input.active,
      createdBy: staffUserId,
      updatedBy: staffUserId,
    })
    .returning({ id: ads.id });
  return getStaffAd(deps, row!.id);
}

export async function updateStaffAd(deps: StaffAdDeps, id: string, change: UpdateAd, staffUserId: string): Promise<StaffAd> {
  const current = await getStaffAd(deps, id);
  const merged = {
    kind: change.kind ?? current.kind,
    imageUrl: change.imageUrl !== undefined ? change.imageUrl : current.imageUrl,
    imageAlt: change.imageAlt ?? current.imageAlt,
    startsAt: change.startsAt !== undefined ? change.startsAt : current.startsAt,
    endsAt: change.endsAt !== undefined ? change.endsAt : current.endsAt,
  };
  // The same cross-field rules as on create, applied to the ad as it would be after the change.
  const issues = adRuleIssues(merged);
  if (issues.length > 0) {
    throw badRequest(`Invalid request: ${issues[0]!.message}`, { fields: Object.fromEntries(issues.map((i) => [i.path, i.message])) });
  }
  const set: Partial<typeof ads.$inferInsert> = { updatedAt: new Date(), updatedBy: staffUserId };
  if (change.placement !== undefined) set.placement = change.placement;
  if (change.kind !== undefined) set.kind = change.kind;
  if (change.title !== undefined) set.title = change.title;
  if (change.body !== undefined) set.body = change.body;
  if (change.imageUrl !== undefined) set.imageUrl = change.imageUrl;
  if (change.imageAlt !== undefined) set.imageAlt = change.imageAlt;
  if (merged.kind === 'text') {
    set.imageUrl = null;
    set.imageAlt = '';
  }
  if (change.targetUrl !== undefined) {
    set.targetUrl = change.targetUrl;
    set.approvedTargetUrl = change.targetUrl;
  }
  // A new image address is a new picture to take; the same one is kept as it was taken.
  const [stored] = await deps.db.select({ imageId: ads.approvedImageId }).from(ads).where(eq(ads.id, id)).limit(1);
  if (
    merged.kind === 'image' &&
    merged.imageUrl &&
    (merged.imageUrl !== current.imageUrl || current.kind !== 'image' || !stored?.imageId)
  ) {
    set.approvedImageId = await deps.images.take(deps.db, merged.imageUrl);
  }
  if (merged.kind === 'text') set.approvedImageId = null;
  if (change.startsAt !== undefined) set.startsAt = change.startsAt ? new Date(change.startsAt) : null;
  if (change.endsAt !== undefined) set.endsAt = change.endsAt ? new Date(change.endsAt) : null;
  if (change.weight !== undefined) set.weight = change.weight;
  if (change.active !== undefined) set.active = change.active;
  await deps.db.update(ads).set(set).where(eq(ads.id, id));
  return getStaffAd(deps, id);
}

/**
 * Impressions, unique viewers, clicks and click-through per ad and UTC day, for the last `days` days
 * (today included). Days with neither impressions nor clicks are left out.
 */
export async function adStats(deps: StaffAdDeps, days: number, adId?: string): Promise<AdDayStats[]> {
  const adFilter = adId ? sql`AND ad_id = ${adId}` : sql``;
  const result = await deps.db.execute<{ ad_id: string; day: string; impressions: number; unique_viewers: number; clicks: number }>(sql`
      WITH since AS (SELECT (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => ${days - 1})) AT TIME ZONE 'UTC' AS t),
      imp AS (
        SELECT ad_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
               count(*)::int AS impressions, count(DISTINCT viewer_key)::int AS unique_viewers
        FROM ad_impressions WHERE created_at >= (SELECT t FROM since) ${adFilter}
        GROUP BY 1, 2
      ),
      clk AS (
        SELECT ad_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS clicks
        FROM ad_clicks WHERE created_at >= (SELECT t FROM since) ${adFilter}
        GROUP BY 1, 2
      )
      SELECT COALESCE(imp.ad_id, clk.ad_id) AS ad_id, COALESCE(imp.day, clk.day) AS day,
             COALESCE(imp.impressions, 0) AS impressions, COALESCE(imp.unique_viewers, 0) AS unique_viewers,
             COALESCE(clk.clicks, 0) AS clicks
      FROM imp FULL OUTER JOIN clk ON imp.ad_id = clk.ad_id AND imp.day = clk.day
      ORDER BY day DESC, ad_id
    `);
  return result.rows.map((r) => ({
    adId: r.ad_id,
    day: r.day,
    impressions: Number(r.impressions),
    uniqueViewers: Number(r.unique_viewers),
    clicks: Number(r.clicks),
    clickThroughRate: Number(r.impressions) > 0 ? Number(r.clicks) / Number(r.impressions) : 0,
  }));
}
