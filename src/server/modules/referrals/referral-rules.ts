import { sql } from 'drizzle-orm';
import type { ReferralRefusalReason, ReferralSettings, ReferralSignals } from '#shared/schemas/referrals.js';
import type { DbOrTx } from '#server/db/client.js';

// The referral programme's pure rules and its self-referral signals (docs/product.md#referrals,
// docs/decisions/0332-referral-rewards-from-the-ledger.md).

const DAY_MS = 86_400_000;

/** `al•••e`: the first two letters and the last one; a name of three letters or fewer shows its first only. */
export function maskName(username: string): string {
  const chars = [...username];
  if (chars.length <= 3) return `${chars[0] ?? ''}•••`;
  return `${chars[0]}${chars[1]}•••${chars[chars.length - 1]}`;
}

/**
 * One mailbox, however it is written: lower case, no `+tag`, and for Gmail no dots (Gmail ignores them,
 * and googlemail.com is the same mailbox).
 */
export function normaliseEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}

/** The referrer's share of a credited top-up before the caps, floored to the cent. */
export function shareOf(creditedCents: number, basisPoints: number): number {
  return Math.floor((creditedCents * basisPoints) / 10_000);
}

/** `10%`, `12.5%`: the share as the ledger's description writes it. */
export function sharePercent(basisPoints: number): string {
  return `${Number((basisPoints / 100).toFixed(2))}%`;
}

/** What a share may still be after the three caps (never below zero). */
export function capped(
  rawCents: number,
  settings: Pick<ReferralSettings, 'capPerReferredCents' | 'dailyCapCents' | 'lifetimeCapCents'>,
  used: { perReferred: number; today: number; lifetime: number },
): number {
  return Math.max(
    0,
    Math.min(
      rawCents,
      settings.capPerReferredCents - used.perReferred,
      settings.dailyCapCents - used.today,
      settings.lifetimeCapCents - used.lifetime,
    ),
  );
}

/** Until when a referred person's top-ups earn their referrer a share. */
export function rewardsUntil(joinedAt: Date, rewardDays: number): Date {
  return new Date(joinedAt.getTime() + rewardDays * DAY_MS);
}

export function releaseTime(now: Date, holdDays: number): Date {
  return new Date(now.getTime() + holdDays * DAY_MS);
}

/** The UTC day of a moment, `2026-12-07`: the daily cap counts by it. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The Monday (UTC) of the ISO week of a moment, at midnight. */
export function isoWeekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - weekday * DAY_MS);
}

/** The first signal that refuses a referral, in the order the product lists them, or null. */
export function refusalReasonOf(referrerId: string, referredId: string, signals: ReferralSignals): ReferralRefusalReason | null {
  if (referrerId === referredId) return 'same_account';
  if (signals.sameEmail) return 'same_email';
  if (signals.sameDevice) return 'same_device';
  if (signals.sameAddress) return 'same_address';
  if (signals.samePayoutAddress) return 'same_payout_address';
  return null;
}

/** Addresses of the machine itself (a local run, a proxy not trusted): they say nothing of a person. */
const LOOPBACK = sql`('127.0.0.1', '::1', '::ffff:127.0.0.1')`;

/**
 * What two accounts share (docs/product.md#referrals): the same mailbox under another alias, a device
 * (`known_devices`), an address sessions were opened from (`sessions.ip`, loopback left out), or a
 * payout or refund address of their exchanges.
 */
export async function signalsBetween(db: DbOrTx, referrerId: string, referredId: string): Promise<ReferralSignals> {
  const result = await db.execute<{ a_email: string; b_email: string; device: boolean; address: boolean; payout: boolean }>(sql`
    SELECT
      (SELECT email FROM users WHERE id = ${referrerId}) AS a_email,
      (SELECT email FROM users WHERE id = ${referredId}) AS b_email,
      EXISTS (
        SELECT 1 FROM known_devices x JOIN known_devices y ON y.device_key = x.device_key
        WHERE x.user_id = ${referrerId} AND y.user_id = ${referredId}
      ) AS device,
      EXISTS (
        SELECT 1 FROM sessions x JOIN sessions y ON y.ip = x.ip
        WHERE x.user_id = ${referrerId} AND y.user_id = ${referredId}
          AND x.ip IS NOT NULL AND x.ip <> '' AND x.ip NOT IN ${LOOPBACK} AND x.ip NOT LIKE '127.%'
      ) AS address,
      EXISTS (
        SELECT 1 FROM
          (SELECT payout_address AS a FROM exchanges WHERE user_id = ${referrerId}
           UNION SELECT refund_address FROM exchanges WHERE user_id = ${referrerId} AND refund_address IS NOT NULL) x
        JOIN
          (SELECT payout_address AS a FROM exchanges WHERE user_id = ${referredId}
           UNION SELECT refund_address FROM exchanges WHERE user_id = ${referredId} AND refund_address IS NOT NULL) y
        ON lower(trim(y.a)) = lower(trim(x.a))
      ) AS payout`);
  const row = result.rows[0]!;
  return {
    sameEmail: referrerId !== referredId && normaliseEmail(String(row.a_email ?? '')) === normaliseEmail(String(row.b_email ?? '')),
    sameDevice: Boolean(row.device),
    sameAddress: Boolean(row.address),
    samePayoutAddress: Boolean(row.payout),
  };
}
