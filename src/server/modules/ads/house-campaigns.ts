import { eq } from 'drizzle-orm';
import type { Campaign } from '#shared/schemas/ads.js';
import { AppError, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { adCampaigns, ads } from './ads.tables.js';
import { endCampaign } from './campaign-ending.js';
import {
  campaignEnded,
  campaignTerms,
  creativeValues,
  loadCampaigns,
  lockOwnCampaign,
  oneCampaign,
  type CampaignDeps,
  type CreateHouseCampaign,
} from './campaign-rows.js';

// ---- House campaigns (staff) ------------------------------------------------------------------------

/**
 * An admin creates a campaign for the house (docs/decisions/0283): no owner, no reservation and no
 * ledger entry; its optional budget is drawn from like a paid one's (so caps and pacing hold) but
 * counted, never paid. Its creatives are approved by the admin who creates it, and the creation is
 * audit-logged in the same transaction. The `requestId` makes a double submit create one campaign.
 */
export async function createHouseCampaign(
  deps: CampaignDeps,
  actorId: string,
  input: CreateHouseCampaign,
): Promise<{ campaign: Campaign; created: boolean }> {
  const id = input.requestId;
  // The admin's creatives are approved as they are saved: their images are taken now, before the
  // transaction (a fetch takes seconds and holds no lock), docs/decisions/0303.
  const imageIds: (string | null)[] = [];
  for (const creative of input.creatives) {
    imageIds.push(creative.kind === 'image' && creative.imageUrl ? await deps.images.take(deps.db, creative.imageUrl) : null);
  }
  const created = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(adCampaigns)
      .values({
        id,
        ownerId: null,
        house: true,
        createdBy: actorId,
        ...campaignTerms(input),
        remainingMillicents: input.budgetCents === null ? null : input.budgetCents * 1000,
        status: 'active',
      })
      .onConflictDoNothing({ target: adCampaigns.id })
      .returning({ id: adCampaigns.id });
    if (!inserted) return false;
    const now = new Date();
    const creatives = await tx
      .insert(ads)
      .values(
        input.creatives.map((creative, i) => ({
          ...creativeValues(creative),
          approvedTargetUrl: creative.targetUrl,
          approvedImageId: imageIds[i] ?? null,
          placement: input.placements[0]!,
          campaignId: id,
          reviewStatus: 'approved' as const,
          reviewedBy: actorId,
          reviewedAt: now,
          createdBy: actorId,
          updatedBy: actorId,
        })),
      )
      .returning({ id: ads.id, title: ads.title });
    const [actor] = await tx.select({ username: users.username }).from(users).where(eq(users.id, actorId)).limit(1);
    await recordAudit(tx, {
      actor: { id: actorId, username: actor?.username ?? 'unknown' },
      action: 'ad-campaign.create-house',
      targetType: 'ad-campaign',
      targetId: id,
      before: null,
      after: {
        name: input.name,
        placements: input.placements,
        priceModel: input.priceModel,
        priceCents: input.priceCents,
        budgetCents: input.budgetCents,
        creatives: creatives.map((c) => ({ id: c.id, title: c.title, reviewStatus: 'approved' })),
      },
      reason: null,
    });
    return true;
  });
  const [campaign] = await loadCampaigns(deps.db, eq(adCampaigns.id, id), 1);
  const same =
    campaign &&
    campaign.house &&
    campaign.name === input.name &&
    campaign.budgetCents === input.budgetCents &&
    campaign.priceModel === input.priceModel &&
    campaign.priceCents === input.priceCents;
  if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This request id was already used for another campaign');
  return { campaign, created };
}

/** Staff pause, resume or stop a house campaign (a paid one is its owner's to change: 404 here). Stopping refunds nothing. */
export async function changeHouseCampaign(deps: CampaignDeps, id: string, action: 'pause' | 'resume' | 'stop'): Promise<Campaign> {
  return deps.db.transaction(async (tx) => {
    const c = await lockOwnCampaign(tx, null, id);
    if (!c.house) throw notFound('Campaign not found');
    if (action === 'stop') await endCampaign(deps, tx, id, 'stopped');
    else {
      if (c.status === 'ended') throw campaignEnded();
      await tx
        .update(adCampaigns)
        .set({ status: action === 'pause' ? 'paused' : 'active', updatedAt: new Date() })
        .where(eq(adCampaigns.id, id));
    }
    return oneCampaign(tx, id, null);
  });
}
