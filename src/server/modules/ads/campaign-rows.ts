import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AdPlacement,
  type Campaign,
  type CampaignState,
  type Creative,
  type createCampaignBodySchema,
  type createHouseCampaignBodySchema,
  type creativeBodySchema,
} from '#shared/schemas/ads.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { lockUserForMoney } from '#server/modules/credits/ledger.service.js';
import { users } from '#server/modules/users/users.tables.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { AdImageStore } from './ad-images.js';
import { adCampaigns, ads, type AdRow, type CampaignRow } from './ads.tables.js';

export type CreateCampaign = z.output<typeof createCampaignBodySchema>;
export type CreateHouseCampaign = z.output<typeof createHouseCampaignBodySchema>;
export type CreativeInput = z.output<typeof creativeBodySchema>;

/** What the campaign use-case files are given by CampaignsService. */
export interface CampaignDeps {
  db: Db;
  events: DomainEvents;
  /** Where approved images are taken and kept (docs/decisions/0303). */
  images: AdImageStore;
}

/** Why a campaign ended (shown to its owner). */
export type EndReason = 'stopped' | 'finished' | 'budget-spent' | 'rejected' | 'account-closed';

export const campaignEnded = () => new AppError('CAMPAIGN_ENDED', 'This campaign has ended and cannot change any more');

/** The ledger references of a campaign: its reservation and the refund of what it did not spend. */
export const campaignReference = (id: string) => `ad-campaign:${id}`;
export const campaignRefundReference = (id: string) => `ad-campaign-refund:${id}`;

export function toCreative(row: AdRow): Creative {
  return {
    _id: row.id,
    kind: row.kind as Creative['kind'],
    title: row.title,
    body: row.body,
    imageUrl: row.imageUrl,
    imageAlt: row.imageAlt,
    targetUrl: row.targetUrl,
    reviewStatus: row.reviewStatus,
    reviewReason: row.reviewReason,
  };
}

function stateOf(c: CampaignRow, creatives: AdRow[], now: Date): CampaignState {
  if (c.status === 'ended') return 'ended';
  if (c.status === 'paused') return 'paused';
  if (!creatives.some((a) => a.reviewStatus === 'approved' && a.active)) return 'in-review';
  if (now < c.startsAt) return 'scheduled';
  return 'running';
}

/** The cells of a creative a campaign's owner sets (the same kinds and address rules as house ads). */
export function creativeValues(input: CreativeInput) {
  return {
    kind: input.kind,
    title: input.title,
    body: input.body,
    imageUrl: input.kind === 'image' ? input.imageUrl : null,
    imageAlt: input.kind === 'image' ? input.imageAlt : '',
    targetUrl: input.targetUrl,
  };
}

/** The terms a paid and a house campaign are created with alike (price per unit in millicents). */
export function campaignTerms(input: CreateCampaign | CreateHouseCampaign) {
  return {
    name: input.name,
    placements: input.placements,
    startsAt: new Date(input.startsAt),
    endsAt: new Date(input.endsAt),
    priceModel: input.priceModel,
    priceCents: input.priceCents,
    unitMillicents: input.priceModel === 'cpm' ? input.priceCents : input.priceCents * 1000,
    budgetCents: input.budgetCents,
    dailyBudgetCents: input.dailyBudgetCents,
    frequencyCap: input.frequencyCap,
  };
}

export async function loadCampaigns(db: DbOrTx, where: ReturnType<typeof and>, limit = 500): Promise<Campaign[]> {
  const rows = await db
    .select({ campaign: adCampaigns, ownerName: users.username })
    .from(adCampaigns)
    // The owner, or for a house campaign the admin who created it.
    .leftJoin(users, eq(users.id, sql`coalesce(${adCampaigns.ownerId}, ${adCampaigns.createdBy})`))
    .where(where)
    .orderBy(desc(adCampaigns.createdAt), desc(adCampaigns.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.campaign.id);
  const creatives = await db.select().from(ads).where(inArray(ads.campaignId, ids)).orderBy(asc(ads.createdAt), asc(ads.id));
  const spent = await db.execute<{ campaign_id: string; spent: string }>(sql`
      SELECT campaign_id, coalesce(sum(spend_millicents), 0)::bigint AS spent FROM ad_campaign_days
      WHERE campaign_id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) GROUP BY campaign_id`);
  const spentBy = new Map(spent.rows.map((r) => [r.campaign_id, Number(r.spent)]));
  const now = new Date();
  return rows.map(({ campaign: c, ownerName }) => {
    const own = creatives.filter((a) => a.campaignId === c.id);
    return {
      _id: c.id,
      ownerId: c.ownerId,
      ownerName,
      house: c.house,
      name: c.name,
      placements: c.placements as AdPlacement[],
      startsAt: c.startsAt.toISOString(),
      endsAt: c.endsAt.toISOString(),
      priceModel: c.priceModel,
      priceCents: c.priceCents,
      budgetCents: c.budgetCents,
      dailyBudgetCents: c.dailyBudgetCents,
      frequencyCap: c.frequencyCap,
      spentMillicents: spentBy.get(c.id) ?? 0,
      remainingMillicents: c.remainingMillicents,
      status: c.status,
      state: stateOf(c, own, now),
      endReason: c.endReason,
      refundedCents: c.refundedCents,
      endedAt: c.endedAt ? c.endedAt.toISOString() : null,
      createdAt: c.createdAt.toISOString(),
      creatives: own.map(toCreative),
    };
  });
}

export async function oneCampaign(db: DbOrTx, id: string, ownerId: string | null): Promise<Campaign> {
  const where = ownerId === null ? eq(adCampaigns.id, id) : and(eq(adCampaigns.id, id), eq(adCampaigns.ownerId, ownerId));
  const [campaign] = await loadCampaigns(db, where, 1);
  // Someone else's campaign is not found, like one that does not exist.
  if (!campaign) throw notFound('Campaign not found');
  return campaign;
}

/**
 * Locks a campaign for a change, after its owner's row (decision 0301: the user first, then the rows
 * that reference it; ending a campaign refunds its owner). A campaign never changes owner, so the
 * owner is read before either lock.
 */
export async function lockOwnCampaign(tx: Tx, ownerId: string | null, id: string): Promise<CampaignRow> {
  const where = ownerId === null ? eq(adCampaigns.id, id) : and(eq(adCampaigns.id, id), eq(adCampaigns.ownerId, ownerId));
  const [owner] = await tx.select({ ownerId: adCampaigns.ownerId }).from(adCampaigns).where(where).limit(1);
  if (!owner) throw notFound('Campaign not found');
  if (owner.ownerId !== null) await lockUserForMoney(tx, owner.ownerId);
  const [row] = await tx.select().from(adCampaigns).where(where).for('update');
  if (!row) throw notFound('Campaign not found');
  return row;
}
