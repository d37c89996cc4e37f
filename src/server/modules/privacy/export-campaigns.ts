import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { adCampaigns, ads } from '#server/modules/ads/ads.tables.js';
import { iso, json, type ExportEntry } from './export-format.js';

export async function* campaignFiles(db: DbOrTx, userId: string): AsyncGenerator<ExportEntry> {
  // campaigns.json: the person's own ad campaigns and their creatives (decision 0304): the terms, the money
  // (spent, still reserved, refunded), the review's outcome and reason as the owner sees them, and the
  // daily delivery figures. Who reviewed a creative (a staff account) is not theirs and is left out.
  const campaignRows = await db
    .select()
    .from(adCampaigns)
    .where(eq(adCampaigns.ownerId, userId))
    .orderBy(asc(adCampaigns.createdAt), asc(adCampaigns.id));
  const campaignIds = campaignRows.map((c) => c.id);
  const creativeRows = campaignIds.length
    ? await db.select().from(ads).where(inArray(ads.campaignId, campaignIds)).orderBy(asc(ads.createdAt), asc(ads.id))
    : [];
  const dayRows = campaignIds.length
    ? (
        await db.execute<{
          campaign_id: string;
          ad_id: string;
          day: string;
          served: number;
          viewable: number;
          clicks: number;
          spend: string;
        }>(sql`
          SELECT campaign_id, ad_id, to_char(day, 'YYYY-MM-DD') AS day, served, viewable, clicks, spend_millicents AS spend FROM ad_campaign_days
          WHERE campaign_id IN (${sql.join(
            campaignIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) ORDER BY day, ad_id`)
      ).rows
    : [];
  yield {
    name: 'campaigns.json',
    data: json({
      campaigns: campaignRows.map((c) => ({
        id: c.id,
        name: c.name,
        placements: c.placements,
        startsAt: iso(c.startsAt),
        endsAt: iso(c.endsAt),
        priceModel: c.priceModel,
        priceCents: c.priceCents,
        budgetCents: c.budgetCents,
        dailyBudgetCents: c.dailyBudgetCents,
        frequencyCap: c.frequencyCap,
        remainingMillicents: c.remainingMillicents,
        status: c.status,
        endReason: c.endReason,
        refundedCents: c.refundedCents,
        createdAt: iso(c.createdAt),
        endedAt: iso(c.endedAt),
        creatives: creativeRows
          .filter((a) => a.campaignId === c.id)
          .map((a) => ({
            id: a.id,
            kind: a.kind,
            title: a.title,
            body: a.body,
            imageUrl: a.imageUrl,
            imageAlt: a.imageAlt,
            targetUrl: a.targetUrl,
            reviewStatus: a.reviewStatus,
            reviewReason: a.reviewReason,
            reviewedAt: iso(a.reviewedAt),
            createdAt: iso(a.createdAt),
            updatedAt: iso(a.updatedAt),
          })),
        days: dayRows
          .filter((d) => d.campaign_id === c.id)
          .map((d) => ({
            day: d.day,
            creativeId: d.ad_id,
            served: Number(d.served),
            viewable: Number(d.viewable),
            clicks: Number(d.clicks),
            spendMillicents: Number(d.spend),
          })),
      })),
    }),
  };
}
