import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AdPlacement, Campaign, Creative, ReviewItem } from '#shared/schemas/ads.js';
import { AppError, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { adCampaigns, ads } from './ads.tables.js';
import { endCampaign } from './campaign-ending.js';
import { campaignEnded, lockOwnCampaign, oneCampaign, toCreative, type CampaignDeps } from './campaign-rows.js';

// ---- Staff review -----------------------------------------------------------------------------------

/** Creatives waiting for review on campaigns that have not ended, oldest first. */
export async function reviewQueue(deps: CampaignDeps): Promise<ReviewItem[]> {
  const rows = await deps.db
    .select({ ad: ads, campaign: adCampaigns, ownerName: users.username })
    .from(ads)
    .innerJoin(adCampaigns, eq(adCampaigns.id, ads.campaignId))
    .innerJoin(users, eq(users.id, adCampaigns.ownerId))
    .where(and(eq(ads.reviewStatus, 'pending'), ne(adCampaigns.status, 'ended')))
    .orderBy(asc(ads.updatedAt), asc(ads.id))
    .limit(500);
  return rows.map((r) => ({
    creative: toCreative(r.ad),
    campaignId: r.campaign.id,
    campaignName: r.campaign.name,
    ownerName: r.ownerName,
    placements: r.campaign.placements as AdPlacement[],
    submittedAt: r.ad.updatedAt.toISOString(),
  }));
}

/**
 * Approves or rejects a waiting creative (409 ALREADY_REVIEWED otherwise), audit-logged in the same
 * transaction. Rejecting the last creative that could still run ends the campaign and refunds it.
 */
export async function reviewCreative(
  deps: CampaignDeps,
  creativeId: string,
  decision: { approve: true } | { approve: false; reason: string },
  actorId: string,
): Promise<{ creative: Creative; campaign: Campaign }> {
  // Approving an image creative takes its picture first (docs/decisions/0303): fetched once, checked,
  // kept in our storage, outside the transaction (a fetch holds no lock). 422 AD_IMAGE_REFUSED when it
  // cannot be taken, and then nothing changes.
  let image: { from: string; id: string } | null = null;
  if (decision.approve) {
    const [pre] = await deps.db
      .select({ kind: ads.kind, imageUrl: ads.imageUrl, reviewStatus: ads.reviewStatus })
      .from(ads)
      .where(eq(ads.id, creativeId))
      .limit(1);
    if (pre?.reviewStatus === 'pending' && pre.kind === 'image' && pre.imageUrl)
      image = { from: pre.imageUrl, id: await deps.images.take(deps.db, pre.imageUrl) };
  }
  return deps.db.transaction(async (tx) => {
    const [found] = await tx.select({ campaignId: ads.campaignId }).from(ads).where(eq(ads.id, creativeId)).limit(1);
    if (!found?.campaignId) throw notFound('Creative not found');
    // The campaign first, then the creative: the order every campaign change takes.
    const campaign = await lockOwnCampaign(tx, null, found.campaignId);
    const [creative] = await tx.select().from(ads).where(eq(ads.id, creativeId)).for('update');
    if (!creative) throw notFound('Creative not found');
    if (campaign.status === 'ended') throw campaignEnded();
    if (creative.reviewStatus !== 'pending') throw new AppError('ALREADY_REVIEWED', 'This creative was already reviewed');
    // The picture taken must be the one under review: an edit in between is a new review.
    if (decision.approve && creative.kind === 'image' && creative.imageUrl !== image?.from) {
      throw new AppError('CREATIVE_CHANGED', 'The creative changed while it was being reviewed; review it again');
    }
    const [actor] = await tx.select({ username: users.username }).from(users).where(eq(users.id, actorId)).limit(1);
    const status = decision.approve ? 'approved' : 'rejected';
    const reason = decision.approve ? null : decision.reason;
    const [updated] = await tx
      .update(ads)
      .set({
        reviewStatus: status,
        reviewReason: reason,
        reviewedBy: actorId,
        reviewedAt: new Date(),
        // What a click redirects to and the picture we serve are the ones approved here (docs/decisions/0302, 0303).
        ...(decision.approve
          ? { approvedTargetUrl: creative.targetUrl, approvedImageId: creative.kind === 'image' ? image!.id : null }
          : {}),
      })
      .where(eq(ads.id, creativeId))
      .returning();
    await recordAudit(tx, {
      actor: { id: actorId, username: actor?.username ?? 'unknown' },
      action: decision.approve ? 'ad-creative.approve' : 'ad-creative.reject',
      targetType: 'ad-creative',
      targetId: creativeId,
      before: { reviewStatus: creative.reviewStatus, campaignId: campaign.id, title: creative.title },
      after: { reviewStatus: status },
      reason,
    });
    if (!decision.approve) {
      const [alive] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(ads)
        .where(and(eq(ads.campaignId, campaign.id), inArray(ads.reviewStatus, ['pending', 'approved'])));
      if (Number(alive?.n ?? 0) === 0) await endCampaign(deps, tx, campaign.id, 'rejected');
    }
    return { creative: toCreative(updated!), campaign: await oneCampaign(tx, campaign.id, null) };
  });
}
