import { sql } from 'drizzle-orm';
import { FINAL_EXCHANGE_STATUSES } from '#shared/exchange-statuses.js';
import { FINAL_PAYMENT_STATUSES } from '#shared/schemas/payments.js';
import type { DbOrTx } from '#server/db/client.js';
import { pruneDataExports } from '#server/modules/privacy/data-export.service.js';
import { pruneOldNotifications } from '#server/modules/notifications/notifications.service.js';
import { pruneUnconfirmedSubscribers } from '#server/modules/status/status-subscriptions.js';
import { AttachmentStore } from '#server/modules/support/tickets/attachments.js';

export const PRUNE_JOB = 'maintenance.prune';

/**
 * Rows that can no longer change any answer are deleted once they are this old. Every rate-limit
 * window is at most an hour and the ad de-duplication window 30 minutes, so a day leaves a wide margin:
 * an expired row is reset on its next use anyway, deleting it changes nothing a caller can see.
 */
const DEAD_AFTER = sql`interval '1 day'`;
/** Sessions, idle guests, finished webhook deliveries and sandbox rows: README "How long we keep things". */
const KEPT_FOR = sql`interval '30 days'`;

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Guests with nothing for 30 days (no session seen, no ticket message, no exchange change) and nothing
 * still open: no exchange in progress and no reward that can still be claimed (decision 0251).
 */
const IDLE_GUESTS = sql`
  SELECT g.guest_id FROM (
    SELECT guest_id FROM sessions WHERE is_guest AND guest_id IS NOT NULL
    UNION SELECT guest_id FROM tickets WHERE guest_id IS NOT NULL
  ) g
  WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.guest_id = g.guest_id AND s.last_seen_at > now() - ${KEPT_FOR})
    AND NOT EXISTS (SELECT 1 FROM tickets tk WHERE tk.guest_id = g.guest_id AND tk.last_message_at > now() - ${KEPT_FOR})
    AND NOT EXISTS (
      SELECT 1 FROM exchanges x WHERE x.guest_id = g.guest_id AND (
        x.updated_at > now() - ${KEPT_FOR}
        OR x.status NOT IN (${list(FINAL_EXCHANGE_STATUSES)})
        OR (x.reward_mode = 'claim' AND x.reward_credited_at IS NULL AND x.claim_deadline > now())
      )
    )`;

export interface PruneResult {
  rateLimitCounters: number;
  adViewerImpressions: number;
  /** Charged-click markers of CPC creatives a day past their last use (docs/decisions/0284). */
  adPaidClicks: number;
  /** Per-address charge markers (docs/decisions/0302) a day after their last charge. */
  adAddressCharges: number;
  /** Status subscriptions never confirmed within their link's lifetime (docs/decisions/0194). */
  unconfirmedStatusSubscribers: number;
  /** One-time links, sign-in and passkey challenges a day past their expiry. */
  expiredTokens: number;
  /** Sessions that ended (signed out or expired) over 30 days ago. */
  endedSessions: number;
  /** Guest sessions and guest tickets of idle guests without an open claim. */
  idleGuestTickets: number;
  idleGuestSessions: number;
  /** Webhook deliveries that succeeded or failed for good over 30 days ago (their attempts go with them). */
  finishedWebhookDeliveries: number;
  /** Sandbox provider rows unchanged for 30 days whose payment or exchange is final. */
  sandboxRows: number;
  /** Copies of data past their 7 days (files and rows). */
  dataExports: number;
  /** Notifications (and their chat deliveries) past their 90 days. */
  notifications: number;
}

/**
 * Enforces the retention table (README "How long we keep things", docs/decisions/0251): deletes
 * bookkeeping rows that only grow and personal data past its time. Never touched here: users, the
 * ledger, debts, payments, exchanges, orders, charges, the audit log, ad impressions and clicks, the
 * campaign reports (`ad_campaign_days`);
 * nothing an open payment, swap or guest claim still needs.
 */
export async function pruneDeadRows(db: DbOrTx, attachmentsDir?: string): Promise<PruneResult> {
  const counters = await db.execute(sql`DELETE FROM rate_limit_counters WHERE window_start < now() - ${DEAD_AFTER}`);
  // A viewer's row of an ad (docs/decisions/0284, 0296) matters only inside the 30-minute window after
  // its last serve or counted impression, and its day count only on that UTC day: a row untouched for a
  // day answers exactly as a missing one, so deleting it changes no count, cap or charge.
  const markers = await db.execute(
    sql`DELETE FROM ad_viewer_impressions WHERE greatest(last_counted_at, served_at) < now() - ${DEAD_AFTER}`,
  );
  const adPaidClicks = (await db.execute(sql`DELETE FROM ad_paid_clicks WHERE last_charged_at < now() - ${DEAD_AFTER}`)).rowCount ?? 0;
  // The per-address gate of charged units (docs/decisions/0302) matters only inside its 30-minute window.
  const adAddressCharges =
    (await db.execute(sql`DELETE FROM ad_address_charges WHERE last_charged_at < now() - ${DEAD_AFTER}`)).rowCount ?? 0;
  const unconfirmedStatusSubscribers = await pruneUnconfirmedSubscribers(db);

  let expiredTokens = 0;
  for (const table of [sql`account_tokens`, sql`login_challenges`, sql`webauthn_challenges`]) {
    expiredTokens += (await db.execute(sql`DELETE FROM ${table} WHERE expires_at < now() - ${DEAD_AFTER}`)).rowCount ?? 0;
  }

  // Idle guests first (their sessions may have ended long ago too), then every session ended 30 days ago.
  const guestFiles = await db.execute<{ storage_key: string }>(sql`
    SELECT a.storage_key FROM ticket_attachments a JOIN tickets t ON t.id = a.ticket_id WHERE t.guest_id IN (${IDLE_GUESTS})`);
  const idleGuestTickets = (await db.execute(sql`DELETE FROM tickets WHERE guest_id IN (${IDLE_GUESTS})`)).rowCount ?? 0;
  if (attachmentsDir) {
    const store = new AttachmentStore(attachmentsDir);
    for (const file of guestFiles.rows) await store.remove(file.storage_key);
  }
  const idleGuestSessions = (await db.execute(sql`DELETE FROM sessions WHERE is_guest AND guest_id IN (${IDLE_GUESTS})`)).rowCount ?? 0;
  const endedSessions =
    (await db.execute(sql`DELETE FROM sessions WHERE LEAST(COALESCE(revoked_at, expires_at), expires_at) < now() - ${KEPT_FOR}`))
      .rowCount ?? 0;

  const finishedWebhookDeliveries =
    (
      await db.execute(sql`
      DELETE FROM webhook_deliveries
      WHERE status IN ('succeeded', 'failed') AND COALESCE(delivered_at, last_attempt_at, created_at) < now() - ${KEPT_FOR}`)
    ).rowCount ?? 0;

  let sandboxRows = 0;
  sandboxRows += (await db.execute(sql`DELETE FROM mail_sandbox_messages WHERE created_at < now() - ${KEPT_FOR}`)).rowCount ?? 0;
  sandboxRows += (await db.execute(sql`DELETE FROM discord_sandbox_grants WHERE created_at < now() - ${KEPT_FOR}`)).rowCount ?? 0;
  sandboxRows +=
    (
      await db.execute(sql`
      DELETE FROM sandbox_nowpayments_payments s
      WHERE s.updated_at < now() - ${KEPT_FOR}
        AND NOT EXISTS (
          SELECT 1 FROM payments p WHERE p.provider_payment_id = s.payment_id
            AND (p.status NOT IN (${list(FINAL_PAYMENT_STATUSES)}) OR p.updated_at > now() - ${KEPT_FOR})
        )`)
    ).rowCount ?? 0;
  sandboxRows +=
    (
      await db.execute(sql`
      DELETE FROM sandbox_swap_exchanges s
      WHERE s.updated_at < now() - ${KEPT_FOR}
        AND NOT EXISTS (
          SELECT 1 FROM exchanges x WHERE x.provider_exchange_id = s.id
            AND (x.status NOT IN (${list(FINAL_EXCHANGE_STATUSES)}) OR x.updated_at > now() - ${KEPT_FOR}
                 OR (x.reward_mode = 'claim' AND x.reward_credited_at IS NULL AND x.claim_deadline > now()))
        )`)
    ).rowCount ?? 0;

  const dataExports = attachmentsDir ? await pruneDataExports(db, attachmentsDir) : 0;

  return {
    rateLimitCounters: counters.rowCount ?? 0,
    adViewerImpressions: markers.rowCount ?? 0,
    adPaidClicks,
    adAddressCharges,
    unconfirmedStatusSubscribers,
    expiredTokens,
    endedSessions,
    idleGuestTickets,
    idleGuestSessions,
    finishedWebhookDeliveries,
    sandboxRows,
    dataExports,
    notifications: await pruneOldNotifications(db),
  };
}
