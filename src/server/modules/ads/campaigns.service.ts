import { eq } from 'drizzle-orm';
import type { Campaign, CampaignReport, Creative, ReviewItem } from '#shared/schemas/ads.js';
import type { Db, Tx } from '#server/db/client.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { AdImageStore, httpImageFetcher } from './ad-images.js';
import { adCampaigns } from './ads.tables.js';
import { createCampaign, pauseCampaign, resumeCampaign, stopCampaign, updateCreative } from './advertiser-campaigns.js';
import { endCampaign, endCampaignsOfUser, endDueCampaigns } from './campaign-ending.js';
import { campaignReport, campaignReportCsv } from './campaign-reports.js';
import { reviewCreative, reviewQueue } from './campaign-review.js';
import {
  loadCampaigns,
  oneCampaign,
  type CampaignDeps,
  type CreateCampaign,
  type CreateHouseCampaign,
  type CreativeInput,
  type EndReason,
} from './campaign-rows.js';
import { changeHouseCampaign, createHouseCampaign } from './house-campaigns.js';

export { campaignReference, campaignRefundReference, type EndReason } from './campaign-rows.js';

/**
 * Self-serve ad campaigns paid with credits (docs/product.md#ads, docs/decisions/0280). The money:
 * creating a campaign reserves its whole budget with a `spend` entry (`ad-campaign:<id>`) in the same
 * transaction as the campaign row; delivery draws from the campaign's `remaining_millicents` (the
 * impression batcher and the click path, atomically); ending it for any reason (stopped, finished,
 * budget spent, rejected, account closed) zeroes what is left under the campaign's row lock and gives
 * it back once as a `refund` entry (`ad-campaign-refund:<id>`).
 *
 * This class is the entry point; each concern is its own file: reading (`campaign-rows.ts`), the
 * advertiser's changes (`advertiser-campaigns.ts`), ending and refunding (`campaign-ending.ts`), house
 * campaigns (`house-campaigns.ts`), staff review (`campaign-review.ts`) and reports (`campaign-reports.ts`).
 */
export class CampaignsService {
  private readonly deps: CampaignDeps;

  constructor(
    private readonly db: Db,
    private readonly events: DomainEvents,
    /** Where approved images are taken and kept (docs/decisions/0303). */
    private readonly images: AdImageStore = new AdImageStore(httpImageFetcher({ allowPrivate: false })),
  ) {
    this.deps = { db: this.db, events: this.events, images: this.images };
  }

  // ---- Reading ----------------------------------------------------------------------------------------

  /** The caller's own campaigns, newest first. */
  listOwn(ownerId: string): Promise<Campaign[]> {
    return loadCampaigns(this.db, eq(adCampaigns.ownerId, ownerId));
  }

  getOwn(ownerId: string, id: string): Promise<Campaign> {
    return oneCampaign(this.db, id, ownerId);
  }

  /** Staff: every campaign, newest first. */
  listAll(): Promise<Campaign[]> {
    return loadCampaigns(this.db, undefined);
  }

  /** Staff: any campaign. */
  get(id: string): Promise<Campaign> {
    return oneCampaign(this.db, id, null);
  }

  // ---- The advertiser's changes (advertiser-campaigns.ts) ---------------------------------------------

  /**
   * Creates the campaign and reserves its budget from the owner's balance (422 INSUFFICIENT_CREDITS when
   * it is short, and then nothing is stored). The browser's `requestId` is the campaign's id: the same
   * request sent twice creates and charges one campaign.
   */
  create(ownerId: string, input: CreateCampaign): Promise<{ campaign: Campaign; created: boolean }> {
    return createCampaign(this.deps, ownerId, input);
  }

  pause(ownerId: string, id: string): Promise<Campaign> {
    return pauseCampaign(this.deps, ownerId, id);
  }

  resume(ownerId: string, id: string): Promise<Campaign> {
    return resumeCampaign(this.deps, ownerId, id);
  }

  /** Stops the campaign for good and gives back what it did not spend. Stopping an ended campaign changes nothing. */
  stop(ownerId: string, id: string): Promise<Campaign> {
    return stopCampaign(this.deps, ownerId, id);
  }

  /** Changes a creative; it is not served again until staff approve it (docs/decisions/0302). */
  updateCreative(ownerId: string, id: string, creativeId: string, input: CreativeInput): Promise<Campaign> {
    return updateCreative(this.deps, ownerId, id, creativeId, input);
  }

  // ---- Ending and refunding (campaign-ending.ts) ------------------------------------------------------

  /** Ends a campaign and refunds what it did not spend, once. Run it on the caller's transaction. */
  endCampaign(tx: Tx, id: string, reason: EndReason): Promise<boolean> {
    return endCampaign(this.deps, tx, id, reason);
  }

  /** Stops every open campaign of a user and refunds each, on the caller's transaction (closing an account). */
  endCampaignsOfUser(tx: Tx, userId: string): Promise<number> {
    return endCampaignsOfUser(this.deps, tx, userId);
  }

  /** The job: ends the campaigns that are due, each in its own transaction, and refunds what is left. */
  endDueCampaigns(): Promise<number> {
    return endDueCampaigns(this.deps);
  }

  // ---- House campaigns, staff (house-campaigns.ts) ----------------------------------------------------

  /** An admin creates a campaign for the house (docs/decisions/0283): no owner, no reservation. */
  createHouse(actorId: string, input: CreateHouseCampaign): Promise<{ campaign: Campaign; created: boolean }> {
    return createHouseCampaign(this.deps, actorId, input);
  }

  /** Staff pause, resume or stop a house campaign (a paid one is its owner's to change: 404 here). Stopping refunds nothing. */
  changeHouse(id: string, action: 'pause' | 'resume' | 'stop'): Promise<Campaign> {
    return changeHouseCampaign(this.deps, id, action);
  }

  // ---- Staff review (campaign-review.ts) --------------------------------------------------------------

  /** Creatives waiting for review on campaigns that have not ended, oldest first. */
  reviewQueue(): Promise<ReviewItem[]> {
    return reviewQueue(this.deps);
  }

  /** Approves or rejects a waiting creative, audit-logged; rejecting the last live one ends the campaign. */
  review(
    creativeId: string,
    decision: { approve: true } | { approve: false; reason: string },
    actorId: string,
  ): Promise<{ creative: Creative; campaign: Campaign }> {
    return reviewCreative(this.deps, creativeId, decision, actorId);
  }

  // ---- Reports (campaign-reports.ts) ------------------------------------------------------------------

  /** Per UTC day and creative, the last `days` days (today included), oldest first. `ownerId` null: staff. */
  report(ownerId: string | null, id: string, days: number): Promise<CampaignReport> {
    return campaignReport(this.deps, ownerId, id, days);
  }

  /** The report as CSV (RFC 4180, formula-like cells guarded as in the ledger export). */
  reportCsv(ownerId: string | null, id: string, days: number): Promise<string> {
    return campaignReportCsv(this.deps, ownerId, id, days);
  }
}
