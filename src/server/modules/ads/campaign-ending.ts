import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.js';
import { lockUserForMoney, postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { adCampaigns } from './ads.tables.js';
import { campaignRefundReference, lockOwnCampaign, type CampaignDeps, type EndReason } from './campaign-rows.js';
import { ledgerText } from '#shared/ledger-texts.js';

// ---- Ending and refunding ---------------------------------------------------------------------------

/**
 * Ends a campaign and refunds what it did not spend, once: under the campaign's row lock, an ended
 * campaign is left as it is, and the refund's unique reference would make a repeat a no-op anyway.
 * What is left is zeroed in the same transaction, so no impression or click can draw from it after.
 * A part of a cent left over (CPM impressions cost thousandths of a cent) is rounded up, in the
 * advertiser's favour. Answers whether this call ended it. Run it on the caller's transaction.
 */
export async function endCampaign(deps: Pick<CampaignDeps, 'events'>, tx: Tx, id: string, reason: EndReason): Promise<boolean> {
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
        description: ledgerText('adBudgetUnspent', { campaign: c.name }),
        metadata: { campaignId: id, reason },
      },
      deps.events,
    );
  }
  return true;
}

/**
 * Stops every campaign of a user that has not ended and refunds what each did not spend, on the
 * caller's transaction (closing an account does this). Campaigns are locked in id order. Answers how
 * many it ended.
 */
export async function endCampaignsOfUser(deps: Pick<CampaignDeps, 'events'>, tx: Tx, userId: string): Promise<number> {
  await lockUserForMoney(tx, userId);
  const open = await tx
    .select({ id: adCampaigns.id })
    .from(adCampaigns)
    .where(and(eq(adCampaigns.ownerId, userId), ne(adCampaigns.status, 'ended')))
    .orderBy(asc(adCampaigns.id));
  let ended = 0;
  for (const { id } of open) if (await endCampaign(deps, tx, id, 'account-closed')) ended += 1;
  return ended;
}

/**
 * The job: ends the campaigns past their end date or whose budget cannot pay for one more unit, each
 * in its own transaction, and refunds what is left. Answers how many it ended.
 */
export async function endDueCampaigns(deps: Pick<CampaignDeps, 'db' | 'events'>): Promise<number> {
  const due = await deps.db
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
    const done = await deps.db.transaction(async (tx) => {
      const c = await lockOwnCampaign(tx, null, id).catch(() => null);
      if (!c || c.status === 'ended') return false;
      const finished = c.endsAt.getTime() <= Date.now();
      if (!finished && (c.remainingMillicents === null || c.remainingMillicents >= c.unitMillicents)) return false;
      return endCampaign(deps, tx, id, finished ? 'finished' : 'budget-spent');
    });
    if (done) ended += 1;
  }
  return ended;
}
