import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isUuid } from '#shared/schemas/common.js';
import { FINAL_EXCHANGE_STATUSES, type RewardClaimInput } from '#shared/schemas/exchange.js';
import type { Db, Tx } from '#server/db/client.js';
import type { AppError } from '#server/errors.js';
import type { RateLimiter } from '#server/modules/rate-limit/rate-limit.service.js';
import { ClaimThrottle, claimAccount } from './claim-throttle.js';
import type { ExchangeService } from './exchange.service.js';
import { exchanges, type ExchangeRow } from './exchange.tables.js';
import { claimCodeMatches } from './rewards.js';

/** Wrong claim codes are throttled per claim and per account (claim-throttle.ts, docs/decisions/0121). */
export { CLAIM_LIMITS } from './claim-throttle.js';

/** How long a linked account's claims wait for the browser's redemption before the server credits them. */
export const LINKED_CLAIM_GRACE_MS = 60 * 60 * 1000;

export interface ClaimCheck {
  exchangeId: string;
  valid: boolean;
}

export interface GuestClaimsServiceDeps {
  db: Db;
  rateLimiter: RateLimiter;
  log: FastifyBaseLogger;
  /** Credits a claim's reward through the exchange's own ledger posting. */
  exchange: ExchangeService;
}

/** Guest reward claims (docs/product.md#api): checking and redeeming claim codes, and the linked-claim safety net. */
export class GuestClaimsService {
  /** Wrong reward-claim codes, counted before they are checked (docs/decisions/0121). */
  private readonly claimThrottle: ClaimThrottle;

  constructor(private readonly deps: GuestClaimsServiceDeps) {
    this.claimThrottle = new ClaimThrottle(deps.rateLimiter);
  }

  /** Credits a finished claim's earned reward to `userId` and marks it credited (row locked by the caller); answers the cents. */
  private async creditFinishedClaim(tx: Tx, row: ExchangeRow, userId: string, source: string): Promise<number> {
    const cents = row.earnedRewardCents ?? 0;
    if (!(await this.deps.exchange.creditReward(tx, row, userId, cents, source))) return 0;
    await tx
      .update(exchanges)
      .set({ rewardUserId: userId, rewardCreditedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(exchanges.id, row.id));
    return cents;
  }

  /**
   * The exchange a claim names, when the code is right (a wrong code or unknown id answers null). A right
   * code stays right after the guest signed in and the exchange became the account's own (`direct`):
   * that is no wrong code to throttle, just no longer a pending claim (see `pending`).
   */
  private async findClaimable(claim: RewardClaimInput): Promise<ExchangeRow | null> {
    if (!isUuid(claim.exchangeId)) return null;
    const [row] = await this.deps.db.select().from(exchanges).where(eq(exchanges.id, claim.exchangeId)).limit(1);
    if (!row || !claimCodeMatches(claim.claimCode, row.claimCodeHash)) return null;
    return row;
  }

  /** A claim with the right code is still good: unclaimed, before its deadline, on an exchange that can still finish. */
  private static pending(row: ExchangeRow, now = Date.now()): boolean {
    return (
      row.rewardMode === 'claim' &&
      row.rewardCreditedAt === null &&
      row.claimDeadline !== null &&
      row.claimDeadline.getTime() > now &&
      (row.status === 'finished' ? (row.earnedRewardCents ?? 0) > 0 : !FINAL_EXCHANGE_STATUSES.includes(row.status) && row.rewardCents > 0)
    );
  }

  private static dedupe(claims: RewardClaimInput[]): RewardClaimInput[] {
    const seen = new Set<string>();
    return claims.filter((c) => (seen.has(c.exchangeId) ? false : (seen.add(c.exchangeId), true)));
  }

  /**
   * The safety net under the browser's redemption: a finished claim on an exchange that a sign-in
   * moved to an account (the guest proved it was theirs) and that nobody redeemed within the grace
   * period is credited to that account. The browser clears its claims after sign-in whatever happened
   * (docs/product.md#guest-claims), so a redemption lost to a network failure or a throttled address would
   * otherwise lose the reward. Same row lock and ledger reference as a redemption: credited once.
   */
  async creditUnredeemedLinkedClaims(limit = 100): Promise<number> {
    const due = await this.deps.db
      .select({ id: exchanges.id })
      .from(exchanges)
      .where(
        and(
          eq(exchanges.rewardMode, 'claim'),
          eq(exchanges.status, 'finished'),
          sql`${exchanges.userId} IS NOT NULL`,
          isNull(exchanges.rewardCreditedAt),
          gt(exchanges.claimDeadline, sql`now()`),
          lt(exchanges.updatedAt, new Date(Date.now() - LINKED_CLAIM_GRACE_MS)),
        ),
      )
      .limit(limit);
    let credited = 0;
    for (const { id } of due) {
      const cents = await this.deps.db.transaction(async (tx) => {
        const [row] = await tx.select().from(exchanges).where(eq(exchanges.id, id)).for('update');
        if (!row?.userId || row.status !== 'finished' || !GuestClaimsService.pending(row)) return 0;
        return this.creditFinishedClaim(tx, row, row.userId, 'linked-claim');
      });
      if (cents > 0) {
        credited++;
        this.deps.log.info({ exchangeId: id, cents }, 'unredeemed claim credited to the linked account');
      }
    }
    return credited;
  }

  /** Which claims are still good, and what they are worth by our records (never by the browser's). */
  async guestRewardsStatus(claims: RewardClaimInput[], caller: { userId: string | null; guestId?: string | null }) {
    const account = claimAccount(caller);
    let totalCents = 0;
    const results: ClaimCheck[] = [];
    for (const claim of GuestClaimsService.dedupe(claims)) {
      // Counted before the code is checked (docs/decisions/0121): 429 once this claim or account is used up.
      const attempt = await this.claimThrottle.attempt(claim.exchangeId, account);
      if (!attempt.allowed) throw attempt.error;
      const row = await this.findClaimable(claim);
      if (!row) {
        results.push({ exchangeId: claim.exchangeId, valid: false });
        continue;
      }
      await this.claimThrottle.release(attempt);
      // A claim on an exchange a sign-in moved to an account is that account's alone.
      const valid = GuestClaimsService.pending(row) && (row.userId === null || row.userId === caller.userId);
      if (valid) totalCents += row.earnedRewardCents ?? row.rewardCents;
      results.push({ exchangeId: claim.exchangeId, valid });
    }
    return { totalPotentialRewards: totalCents / 100, claims: results };
  }

  /**
   * Redeems guest claims for `userId`: each finished, unexpired, unclaimed exchange with the right code
   * is credited once (reference `reward:<exchangeId>`), under a row lock so two users racing for one
   * claim cannot both have it. An unfinished one is taken over by `userId` and credited when it finishes.
   */
  async claimGuestRewards(userId: string, claims: RewardClaimInput[]) {
    const account = claimAccount({ userId });
    let totalCents = 0;
    const results: { exchangeId: string; claimed: boolean }[] = [];
    let refused: AppError | null = null;
    let accountUsedUp = false;
    for (const claim of GuestClaimsService.dedupe(claims)) {
      // Once the account has used up its wrong codes, the rest are not tried.
      if (accountUsedUp) {
        results.push({ exchangeId: claim.exchangeId, claimed: false });
        continue;
      }
      // Counted before the code is checked (docs/decisions/0121), outside the transaction: the rate
      // limiter uses its own connection.
      const attempt = await this.claimThrottle.attempt(claim.exchangeId, account);
      if (!attempt.allowed) {
        refused = attempt.error;
        accountUsedUp = attempt.byAccount;
        results.push({ exchangeId: claim.exchangeId, claimed: false });
        continue;
      }
      const found = await this.findClaimable(claim);
      if (!found) {
        results.push({ exchangeId: claim.exchangeId, claimed: false });
        continue;
      }
      await this.claimThrottle.release(attempt);
      const outcome = await this.deps.db.transaction(async (tx): Promise<{ cents: number; claimed: boolean }> => {
        const [row] = await tx.select().from(exchanges).where(eq(exchanges.id, found.id)).for('update');
        if (!row || !GuestClaimsService.pending(row)) return { cents: 0, claimed: false };
        // The guest who made it proved at sign-in that it was theirs: a leaked code is no use to anyone else.
        if (row.userId !== null && row.userId !== userId) return { cents: 0, claimed: false };
        if (row.status !== 'finished') {
          // Not finished yet: the claim becomes the caller's own exchange, credited directly when it
          // finishes. The browser clears every claim after sign-in (docs/product.md#guest-claims), so leaving it a
          // claim would lose the reward; an unfinished claim-mode exchange is always a guest's (userId null).
          await tx
            .update(exchanges)
            .set({ userId, rewardMode: 'direct', updatedAt: sql`now()` })
            .where(and(eq(exchanges.id, row.id), isNull(exchanges.userId)));
          return { cents: 0, claimed: true };
        }
        const cents = await this.creditFinishedClaim(tx, row, userId, 'claim');
        return { cents, claimed: cents > 0 };
      });
      if (outcome.claimed) this.deps.log.info({ exchangeId: found.id, userId, cents: outcome.cents }, 'guest reward claimed');
      totalCents += outcome.cents;
      results.push({ exchangeId: claim.exchangeId, claimed: outcome.claimed });
    }
    // Refused and nothing to report: a 429 (the browser keeps its claims and tries later). What was
    // claimed before a refusal stays in a 200 answer.
    if (refused && !results.some((r) => r.claimed)) throw refused;
    return { totalCredited: totalCents / 100, results };
  }
}
