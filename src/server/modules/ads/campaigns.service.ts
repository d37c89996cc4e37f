import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  adRuleIssues,
  type AdPlacement,
  type Campaign,
  type CampaignReport,
  type CampaignReportRow,
  type CampaignState,
  type Creative,
  type ReviewItem,
  type createCampaignBodySchema,
  type createHouseCampaignBodySchema,
  type creativeBodySchema,
} from '#shared/schemas/ads.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, badRequest, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { lockUserForMoney, postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { csvText } from '#server/modules/receipts/receipts.service.js';
import { users } from '#server/modules/users/users.tables.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import { AdImageStore, httpImageFetcher } from './ad-images.js';
import { TODAY } from './ads.service.js';
import { adCampaigns, ads, type AdRow, type CampaignRow } from './ads.tables.js';

type CreateCampaign = z.output<typeof createCampaignBodySchema>;
type CreateHouseCampaign = z.output<typeof createHouseCampaignBodySchema>;
type CreativeInput = z.output<typeof creativeBodySchema>;

/** Why a campaign ended (shown to its owner). */
export type EndReason = 'stopped' | 'finished' | 'budget-spent' | 'rejected' | 'account-closed';

const campaignEnded = () => new AppError('CAMPAIGN_ENDED', 'This campaign has ended and cannot change any more');

/** The ledger references of a campaign: its reservation and the refund of what it did not spend. */
export const campaignReference = (id: string) => `ad-campaign:${id}`;
export const campaignRefundReference = (id: string) => `ad-campaign-refund:${id}`;

function toCreative(row: AdRow): Creative {
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
function creativeValues(input: CreativeInput) {
  return {
    kind: input.kind,
    title: input.title,
    body: input.body,
    imageUrl: input.kind === 'image' ? input.imageUrl : null,
    imageAlt: input.kind === 'image' ? input.imageAlt : '',
    targetUrl: input.targetUrl,
  };
}

/**
 * Self-serve ad campaigns paid with credits (docs/product.md#ads, docs/decisions/0280). The money:
 * creating a campaign reserves its whole budget with a `spend` entry (`ad-campaign:<id>`) in the same
 * transaction as the campaign row; delivery draws from the campaign's `remaining_millicents` (the
 * impression batcher and the click path, atomically); ending it for any reason (stopped, finished,
 * budget spent, rejected, account closed) zeroes what is left under the campaign's row lock and gives
 * it back once as a `refund` entry (`ad-campaign-refund:<id>`).
 */
/** The terms a paid and a house campaign are created with alike (price per unit in millicents). */
function campaignTerms(input: CreateCampaign | CreateHouseCampaign) {
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

export class CampaignsService {
  constructor(
    private readonly db: Db,
    private readonly webhookEvents: WebhookEvents,
    /** Where approved images are taken and kept (docs/decisions/0303). */
    private readonly images: AdImageStore = new AdImageStore(httpImageFetcher({ allowPrivate: false })),
  ) {}

  // ---- Reading ----------------------------------------------------------------------------------------

  private async load(db: DbOrTx, where: ReturnType<typeof and>, limit = 500): Promise<Campaign[]> {
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

  private async one(db: DbOrTx, id: string, ownerId: string | null): Promise<Campaign> {
    const where = ownerId === null ? eq(adCampaigns.id, id) : and(eq(adCampaigns.id, id), eq(adCampaigns.ownerId, ownerId));
    const [campaign] = await this.load(db, where, 1);
    // Someone else's campaign is not found, like one that does not exist.
    if (!campaign) throw notFound('Campaign not found');
    return campaign;
  }

  /** The caller's own campaigns, newest first. */
  listOwn(ownerId: string): Promise<Campaign[]> {
    return this.load(this.db, eq(adCampaigns.ownerId, ownerId));
  }

  getOwn(ownerId: string, id: string): Promise<Campaign> {
    return this.one(this.db, id, ownerId);
  }

  /** Staff: every campaign, newest first. */
  listAll(): Promise<Campaign[]> {
    return this.load(this.db, undefined);
  }

  /** Staff: any campaign. */
  get(id: string): Promise<Campaign> {
    return this.one(this.db, id, null);
  }

  // ---- The advertiser's changes -----------------------------------------------------------------------

  /**
   * Creates the campaign and reserves its budget from the owner's balance (422 INSUFFICIENT_CREDITS when
   * it is short, and then nothing is stored). The browser's `requestId` is the campaign's id: the same
   * request sent twice creates and charges one campaign.
   */
  async create(ownerId: string, input: CreateCampaign): Promise<{ campaign: Campaign; created: boolean }> {
    const id = input.requestId;
    const created = await this.db.transaction(async (tx) => {
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
          description: `Ad campaign budget: ${input.name}`,
          actorId: ownerId,
          metadata: { campaignId: id },
        },
        this.webhookEvents,
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
    const [campaign] = await this.load(this.db, eq(adCampaigns.id, id), 1);
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

  /**
   * Locks a campaign for a change, after its owner's row (decision 0301: the user first, then the rows
   * that reference it; ending a campaign refunds its owner). A campaign never changes owner, so the
   * owner is read before either lock.
   */
  private async lockOwn(tx: Tx, ownerId: string | null, id: string): Promise<CampaignRow> {
    const where = ownerId === null ? eq(adCampaigns.id, id) : and(eq(adCampaigns.id, id), eq(adCampaigns.ownerId, ownerId));
    const [owner] = await tx.select({ ownerId: adCampaigns.ownerId }).from(adCampaigns).where(where).limit(1);
    if (!owner) throw notFound('Campaign not found');
    if (owner.ownerId !== null) await lockUserForMoney(tx, owner.ownerId);
    const [row] = await tx.select().from(adCampaigns).where(where).for('update');
    if (!row) throw notFound('Campaign not found');
    return row;
  }

  async pause(ownerId: string, id: string): Promise<Campaign> {
    return this.db.transaction(async (tx) => {
      const c = await this.lockOwn(tx, ownerId, id);
      if (c.status === 'ended') throw campaignEnded();
      await tx.update(adCampaigns).set({ status: 'paused', updatedAt: new Date() }).where(eq(adCampaigns.id, id));
      return this.one(tx, id, ownerId);
    });
  }

  async resume(ownerId: string, id: string): Promise<Campaign> {
    return this.db.transaction(async (tx) => {
      const c = await this.lockOwn(tx, ownerId, id);
      if (c.status === 'ended') throw campaignEnded();
      await tx.update(adCampaigns).set({ status: 'active', updatedAt: new Date() }).where(eq(adCampaigns.id, id));
      return this.one(tx, id, ownerId);
    });
  }

  /** Stops the campaign for good and gives back what it did not spend. Stopping an ended campaign changes nothing. */
  async stop(ownerId: string, id: string): Promise<Campaign> {
    return this.db.transaction(async (tx) => {
      await this.lockOwn(tx, ownerId, id);
      await this.endCampaign(tx, id, 'stopped');
      return this.one(tx, id, ownerId);
    });
  }

  /**
   * Changes a creative; the changed creative is not served again until staff approve it, and a click on
   * it meanwhile still goes to the target approved last (docs/decisions/0302), never to the new one.
   */
  async updateCreative(ownerId: string, id: string, creativeId: string, input: CreativeInput): Promise<Campaign> {
    const issues = adRuleIssues(input);
    if (issues.length > 0)
      throw badRequest(`Invalid request: ${issues[0]!.message}`, { fields: Object.fromEntries(issues.map((i) => [i.path, i.message])) });
    return this.db.transaction(async (tx) => {
      const c = await this.lockOwn(tx, ownerId, id);
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
      return this.one(tx, id, ownerId);
    });
  }

  // ---- Ending and refunding ---------------------------------------------------------------------------

  /**
   * Ends a campaign and refunds what it did not spend, once: under the campaign's row lock, an ended
   * campaign is left as it is, and the refund's unique reference would make a repeat a no-op anyway.
   * What is left is zeroed in the same transaction, so no impression or click can draw from it after.
   * A part of a cent left over (CPM impressions cost thousandths of a cent) is rounded up, in the
   * advertiser's favour. Answers whether this call ended it. Run it on the caller's transaction.
   */
  async endCampaign(tx: Tx, id: string, reason: EndReason): Promise<boolean> {
    const [c] = await tx.select().from(adCampaigns).where(eq(adCampaigns.id, id)).for('update');
    if (!c || c.status === 'ended') return false;
    // A house campaign reserved nothing, so nothing comes back (docs/decisions/0283); without a budget
    // there is no rest to zero.
    const refundCents = c.house || c.remainingMillicents === null ? null : Math.ceil(c.remainingMillicents / 1000);
    await tx
      .update(adCampaigns)
      .set({
        status: 'ended',
        endReason: reason,
        remainingMillicents: c.remainingMillicents === null ? null : 0,
        refundedCents: refundCents,
        endedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(adCampaigns.id, id));
    if (refundCents !== null && refundCents > 0 && c.ownerId !== null) {
      await postLedgerEntry(
        tx,
        {
          userId: c.ownerId,
          amountCents: refundCents,
          kind: 'refund',
          reference: campaignRefundReference(id),
          description: `Unspent ad budget: ${c.name}`,
          metadata: { campaignId: id, reason },
        },
        this.webhookEvents,
      );
    }
    return true;
  }

  /**
   * Stops every campaign of a user that has not ended and refunds what each did not spend, on the
   * caller's transaction (closing an account does this). Campaigns are locked in id order. Answers how
   * many it ended.
   */
  async endCampaignsOfUser(tx: Tx, userId: string): Promise<number> {
    await lockUserForMoney(tx, userId);
    const open = await tx
      .select({ id: adCampaigns.id })
      .from(adCampaigns)
      .where(and(eq(adCampaigns.ownerId, userId), ne(adCampaigns.status, 'ended')))
      .orderBy(asc(adCampaigns.id));
    let ended = 0;
    for (const { id } of open) if (await this.endCampaign(tx, id, 'account-closed')) ended += 1;
    return ended;
  }

  /**
   * The job: ends the campaigns past their end date or whose budget cannot pay for one more unit, each
   * in its own transaction, and refunds what is left. Answers how many it ended.
   */
  async endDueCampaigns(): Promise<number> {
    const due = await this.db
      .select({ id: adCampaigns.id })
      .from(adCampaigns)
      .where(
        and(
          ne(adCampaigns.status, 'ended'),
          sql`(${adCampaigns.endsAt} <= now() OR ${adCampaigns.remainingMillicents} < ${adCampaigns.unitMillicents})`,
        ),
      )
      .orderBy(asc(adCampaigns.id))
      .limit(500);
    let ended = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const c = await this.lockOwn(tx, null, id).catch(() => null);
        if (!c || c.status === 'ended') return false;
        const finished = c.endsAt.getTime() <= Date.now();
        if (!finished && (c.remainingMillicents === null || c.remainingMillicents >= c.unitMillicents)) return false;
        return this.endCampaign(tx, id, finished ? 'finished' : 'budget-spent');
      });
      if (done) ended += 1;
    }
    return ended;
  }

  // ---- House campaigns (staff) ------------------------------------------------------------------------

  /**
   * An admin creates a campaign for the house (docs/decisions/0283): no owner, no reservation and no
   * ledger entry; its optional budget is drawn from like a paid one's (so caps and pacing hold) but
   * counted, never paid. Its creatives are approved by the admin who creates it, and the creation is
   * audit-logged in the same transaction. The `requestId` makes a double submit create one campaign.
   */
  async createHouse(actorId: string, input: CreateHouseCampaign): Promise<{ campaign: Campaign; created: boolean }> {
    const id = input.requestId;
    // The admin's creatives are approved as they are saved: their images are taken now, before the
    // transaction (a fetch takes seconds and holds no lock), docs/decisions/0303.
    const imageIds: (string | null)[] = [];
    for (const creative of input.creatives) {
      imageIds.push(creative.kind === 'image' && creative.imageUrl ? await this.images.take(this.db, creative.imageUrl) : null);
    }
    const created = await this.db.transaction(async (tx) => {
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
    const [campaign] = await this.load(this.db, eq(adCampaigns.id, id), 1);
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
  async changeHouse(id: string, action: 'pause' | 'resume' | 'stop'): Promise<Campaign> {
    return this.db.transaction(async (tx) => {
      const c = await this.lockOwn(tx, null, id);
      if (!c.house) throw notFound('Campaign not found');
      if (action === 'stop') await this.endCampaign(tx, id, 'stopped');
      else {
        if (c.status === 'ended') throw campaignEnded();
        await tx
          .update(adCampaigns)
          .set({ status: action === 'pause' ? 'paused' : 'active', updatedAt: new Date() })
          .where(eq(adCampaigns.id, id));
      }
      return this.one(tx, id, null);
    });
  }

  // ---- Staff review -----------------------------------------------------------------------------------

  /** Creatives waiting for review on campaigns that have not ended, oldest first. */
  async reviewQueue(): Promise<ReviewItem[]> {
    const rows = await this.db
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
  async review(
    creativeId: string,
    decision: { approve: true } | { approve: false; reason: string },
    actorId: string,
  ): Promise<{ creative: Creative; campaign: Campaign }> {
    // Approving an image creative takes its picture first (docs/decisions/0303): fetched once, checked,
    // kept in our storage, outside the transaction (a fetch holds no lock). 422 AD_IMAGE_REFUSED when it
    // cannot be taken, and then nothing changes.
    let image: { from: string; id: string } | null = null;
    if (decision.approve) {
      const [pre] = await this.db
        .select({ kind: ads.kind, imageUrl: ads.imageUrl, reviewStatus: ads.reviewStatus })
        .from(ads)
        .where(eq(ads.id, creativeId))
        .limit(1);
      if (pre?.reviewStatus === 'pending' && pre.kind === 'image' && pre.imageUrl)
        image = { from: pre.imageUrl, id: await this.images.take(this.db, pre.imageUrl) };
    }
    return this.db.transaction(async (tx) => {
      const [found] = await tx.select({ campaignId: ads.campaignId }).from(ads).where(eq(ads.id, creativeId)).limit(1);
      if (!found?.campaignId) throw notFound('Creative not found');
      // The campaign first, then the creative: the order every campaign change takes.
      const campaign = await this.lockOwn(tx, null, found.campaignId);
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
        if (Number(alive?.n ?? 0) === 0) await this.endCampaign(tx, campaign.id, 'rejected');
      }
      return { creative: toCreative(updated!), campaign: await this.one(tx, campaign.id, null) };
    });
  }

  // ---- Reports ----------------------------------------------------------------------------------------

  /** Per UTC day and creative, the last `days` days (today included), oldest first. `ownerId` null: staff. */
  async report(ownerId: string | null, id: string, days: number): Promise<CampaignReport> {
    const campaign = await this.one(this.db, id, ownerId);
    const result = await this.db.execute<{
      day: string;
      ad_id: string;
      title: string;
      served: number;
      viewable: number;
      invalid: number;
      invalid_robot: number;
      invalid_over_cap: number;
      invalid_unmatched: number;
      clicks: number;
      spend: string;
    }>(sql`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.ad_id, a.title, d.served, d.viewable, d.invalid,
        d.invalid_robot, d.invalid_over_cap, d.invalid_unmatched, d.clicks, d.spend_millicents AS spend
      FROM ad_campaign_days d JOIN ads a ON a.id = d.ad_id
      WHERE d.campaign_id = ${id} AND d.day > ${TODAY} - ${days}::int
      ORDER BY d.day, a.created_at, a.id`);
    const rows: CampaignReportRow[] = result.rows.map((r) => {
      const invalid = Number(r.invalid);
      const robot = Number(r.invalid_robot);
      const overCap = Number(r.invalid_over_cap);
      const unmatched = Number(r.invalid_unmatched);
      return {
        day: r.day,
        creativeId: r.ad_id,
        creativeTitle: r.title,
        served: Number(r.served),
        viewable: Number(r.viewable),
        invalid,
        // Rows tallied before reasons were kept (migration 0040) have them at 0: the rest is unrecorded.
        invalidReasons: { robot, overCap, unmatched, unrecorded: Math.max(0, invalid - robot - overCap - unmatched) },
        clicks: Number(r.clicks),
        clickThroughRate: Number(r.viewable) > 0 ? Number(r.clicks) / Number(r.viewable) : 0,
        spendMillicents: Number(r.spend),
      };
    });
    return { campaign, rows };
  }

  /** The report as CSV (RFC 4180, cells a spreadsheet would run as formulas guarded as in the ledger export). */
  async reportCsv(ownerId: string | null, id: string, days: number): Promise<string> {
    const { rows } = await this.report(ownerId, id, days);
    const lines = ['day,creative_id,creative,served,viewable,invalid,invalid_robot,invalid_over_cap,invalid_unmatched,clicks,ctr,spend'];
    for (const r of rows) {
      lines.push(
        [
          r.day,
          r.creativeId,
          csvText(r.creativeTitle),
          r.served,
          r.viewable,
          r.invalid,
          r.invalidReasons.robot,
          r.invalidReasons.overCap,
          r.invalidReasons.unmatched,
          r.clicks,
          r.clickThroughRate.toFixed(4),
          (r.spendMillicents / 100_000).toFixed(5),
        ].join(','),
      );
    }
    return `${lines.join('\r\n')}\r\n`;
  }
}
