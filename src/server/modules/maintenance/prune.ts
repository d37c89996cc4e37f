import { sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { pruneOldNotifications } from '#server/modules/notifications/notifications.service.js';
import { pruneUnconfirmedSubscribers } from '#server/modules/status/status-subscriptions.js';

export const PRUNE_JOB = 'maintenance.prune';

/**
 * Rows that can no longer change any answer are deleted once they are this old. Every rate-limit
 * window is at most an hour and the ad de-duplication window 30 minutes, so a day leaves a wide margin:
 * an expired row is reset on its next use anyway, deleting it changes nothing a caller can see.
 */
const DEAD_AFTER = sql`interval '1 day'`;

export interface PruneResult {
  rateLimitCounters: number;
  adViewerImpressions: number;
  /** Status subscriptions never confirmed within their link's lifetime (docs/decisions/0194). */
  unconfirmedStatusSubscribers: number;
  /** Notifications (and their chat deliveries) past their 90 days. */
  notifications: number;
}

/**
 * Deletes bookkeeping rows that only grow: rate-limit counters of past windows and ad de-duplication
 * markers far past their window, and status subscriptions never confirmed in time (OAuth states and
 * login proofs are pruned where they are written).
 * History people read (ledger, payments, audit, impressions and clicks, webhook deliveries) is never
 * touched here.
 */
export async function pruneDeadRows(db: DbOrTx): Promise<PruneResult> {
  const counters = await db.execute(sql`DELETE FROM rate_limit_counters WHERE window_start < now() - ${DEAD_AFTER}`);
  const markers = await db.execute(sql`DELETE FROM ad_viewer_impressions WHERE last_counted_at < now() - ${DEAD_AFTER}`);
  return {
    rateLimitCounters: counters.rowCount ?? 0,
    adViewerImpressions: markers.rowCount ?? 0,
    unconfirmedStatusSubscribers: await pruneUnconfirmedSubscribers(db),
    notifications: await pruneOldNotifications(db),
  };
}
