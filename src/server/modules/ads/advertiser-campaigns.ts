import { and, eq } from 'drizzle-orm';
import { ledgerText } from '#shared/ledger-texts.js';
import { adRuleIssues, type Campaign } from '#shared/schemas/ads.js';
import { AppError, badRequest, notFound } from '#server/errors.js';
import { lockUserForMoney, postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { adCampaigns, ads } from './ads.tables.js';
import { endCampaign } from './campaign-ending.js';
import {
  campaignEnded,
  campaignReference,
  campaignTerms,
  creativeValues,
  loadCampaigns,
  lockOwnCampaign,
  oneCampaign,
  type CampaignDeps,
  type CreateCampaign,
  type CreativeInput,
} from './campaign-rows.js';

// ---- The advertiser's changes -----------------------------------------------------------------------

/**
 * Creates the campaign and reserves its budget from the owner's balance (422 INSUFFICIENT_CREDITS when
 * it is short, and then nothing is stored). The browser's `requestId` is the campaign's id: the same
 * request sent twice creates and charges one campaign.
 */
export async function createCampaign(
  deps: CampaignDeps,
  ownerId: string,
  input: CreateCampaign,
): Promise<{ campaign: Campaign; created: boolean }> {
  const id = input.requestId;
  const created = await deps.db.transaction(async (tx) => {
    // The owner's row first (decision 0301): the campaign's foreign key would otherwise take a share
    // lock on it before the ledger asks for the update lock, and parallel creations deadlock.
    if (!(await lockUserForMoney(tx, ownerId))) throw notFound('User not found');
    const [inserted] = await tx
      .insert(adCampaigns)
      .values({
        id,
        ownerId,
        ...campaignTerms(input),
        remainingMillicents: input.budgetCents * 1000,
        status: 'active',
      })
      .onConflictDoNothing({ target: adCampaigns.id })
      .returning({ id: adCampaigns.id });
    if (!inserted) return false;
    await postLedgerEntry(
      tx,
      {
        userId: ownerId,
        amountCents: -input.budgetCents,
        kind: 'spend',
        reference: campaignReference(id),
        description: ledgerText('adCampaignBudget', { campaign: input.name }),
        actorId: ownerId,
        metadata: { campaignId: id },
      },
      deps.events,
    );
    await tx.insert(ads).values(
      input.creatives.map((creative) => ({
        ...creativeValues(creative),
        placement: input.placements[0]!,
        campaignId: id,
        reviewStatus: 'pending' as const,
        createdBy: ownerId,
        updatedBy: ownerId,
      })),
    );
    return true;
  });
  const [campaign] = await loadCampaigns(deps.db, eq(adCampaigns.id, id), 1);
  // A repeat must be the same request: another account's, or another campaign's, is refused.
  const same =
    campaign &&
    campaign.ownerId === ownerId &&
    campaign.name === input.name &&
    campaign.budgetCents === input.budgetCents &&
    campaign.priceModel === input.priceModel &&
    campaign.priceCents === input.priceCents;
  if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This request id was already used for another campaign');
  return { campaign, created };
}

export async function pauseCampaign(deps: CampaignDeps, ownerId: string, id: string): Promise<Campaign> {
  return deps.db.transaction(async (tx) => {
    const c = await lockOwnCampaign(tx, ownerId, id);
    if (c.status === 'ended') throw campaignEnded();
    await tx.update(adCampaigns).set({ status: 'paused', updatedAt: new Date() }).where(eq(adCampaigns.id, id));
    return oneCampaign(tx, id, ownerId);
  });
}

export async function resumeCampaign(deps: CampaignDeps, ownerId: string, id: string): Promise<Campaign> {
  return deps.db.transaction(async (tx) => {
    const c = await lockOwnCampaign(tx, ownerId, id);
    if (c.status === 'ended') throw campaignEnded();
    await tx.update(adCampaigns).set({ status: 'active', updatedAt: new Date() }).where(eq(adCampaigns.id, id));
    return oneCampaign(tx, id, ownerId);
  });
}

/** Stops the campaign for good and gives back what it did not spend. Stopping an ended campaign changes nothing. */
export async function stopCampaign(deps: CampaignDeps, ownerId: string, id: string): Promise<Campaign> {
  return deps.db.transaction(async (tx) => {
    await lockOwnCampaign(tx, ownerId, id);
    await endCampaign(deps, tx, id, 'stopped');
    return oneCampaign(tx, id, ownerId);
  });
}

/**
 * Changes a creative; the changed creative is not served again until staff approve it, and a click on
 * it meanwhile still goes to the target approved last (docs/decisions/0302), never to the new one.
 */
export async function updateCreative(
  deps: CampaignDeps,
  ownerId: string,
  id: string,
  creativeId: string,
  input: CreativeInput,
): Promise<Campaign> {
  const issues = adRuleIssues(input);
  if (issues.length > 0)
    throw badRequest(`Invalid request: ${issues[0]!.message}`, { fields: Object.fromEntries(issues.map((i) => [i.path, i.message])) });
  return deps.db.transaction(async (tx) => {
    const c = await lockOwnCampaign(tx, ownerId, id);
    if (c.status === 'ended') throw campaignEnded();
    const changed = await tx
      .update(ads)
      .set({
        ...creativeValues(input),
        reviewStatus: 'pending',
        reviewReason: null,
        reviewedBy: null,
        reviewedAt: null,
        updatedAt: new Date(),
        updatedBy: ownerId,
      })
      .where(and(eq(ads.id, creativeId), eq(ads.campaignId, id)))
      .returning({ id: ads.id });
    if (changed.length === 0) throw notFound('Creative not found');
    return oneCampaign(tx, id, ownerId);
  });
}
