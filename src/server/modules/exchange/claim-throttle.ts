import { isUuid } from '#shared/schemas/common.js';
import { tooManyRequests, type AppError } from '#server/errors.js';
import type { RateLimiter, RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';

/**
 * Wrong reward-claim codes are limited per claim and per account, never per address: many people
 * share an address (an office, a mobile carrier), and an address is free to change
 * (docs/decisions/0121).
 */
export const CLAIM_LIMITS = {
  /** Wrong codes for one exchange, from anyone: guessing one claim's code is what the limit stops. */
  wrongCodesPerClaim: { name: 'reward-claim-fail:claim', limit: 10, windowSeconds: 15 * 60 },
  /** Wrong codes from one account (a user, or a guest session), across claims. */
  wrongCodesPerAccount: { name: 'reward-claim-fail:account', limit: 20, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

/** Who presents codes: a signed-in user or a guest session; null for a caller without a session. */
export function claimAccount(caller: { userId: string | null; guestId?: string | null }): string | null {
  if (caller.userId) return `user:${caller.userId}`;
  if (caller.guestId) return `guest:${caller.guestId}`;
  return null;
}

export type Attempt =
  | { allowed: true; held: Array<[RateLimitRule, string]> }
  /** `byAccount`: the account has used up its wrong codes (the rest of a call is not tried either). */
  | { allowed: false; byAccount: boolean; error: AppError };

/**
 * Counts an attempt BEFORE the code is checked: one atomic increment per counter, then the check of
 * the new count, so parallel requests cannot check more codes than the limit (a check-then-count
 * would let them all pass the check first). A right code gives its attempt back (`release`).
 */
export class ClaimThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  async attempt(exchangeId: string, account: string | null): Promise<Attempt> {
    const counters: Array<[RateLimitRule, string]> = [];
    // An id that cannot be an exchange matches no claim: there is nothing to guess there.
    if (isUuid(exchangeId)) counters.push([CLAIM_LIMITS.wrongCodesPerClaim, exchangeId.toLowerCase()]);
    if (account) counters.push([CLAIM_LIMITS.wrongCodesPerAccount, account]);
    const held: Array<[RateLimitRule, string]> = [];
    for (const [rule, subject] of counters) {
      const hit = await this.limiter.hit(rule, subject);
      held.push([rule, subject]);
      if (!hit.allowed) {
        // Refused: this attempt checks nothing, so it counts nothing.
        await this.release({ allowed: true, held });
        return { allowed: false, byAccount: rule === CLAIM_LIMITS.wrongCodesPerAccount, error: tooManyRequests(hit.retryAfterSeconds) };
      }
    }
    return { allowed: true, held };
  }

  /** The code was right (or never checked): the attempt was no wrong code. */
  async release(attempt: Attempt): Promise<void> {
    if (!attempt.allowed) return;
    for (const [rule, subject] of attempt.held) await this.limiter.release(rule, subject);
  }
}
