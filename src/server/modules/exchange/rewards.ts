import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Reward arithmetic and guest claim codes (docs/product.md#exchange). Money is integer cents; a claim code
 * is a bearer secret shown once, so only its hash is kept.
 */

/** Reward cents for an exchange worth `usdValueCents` at `percent` %, rounded half up to the cent. */
export function rewardCentsFor(usdValueCents: number, percent: number): number {
  if (!(usdValueCents > 0) || !(percent > 0)) return 0;
  // Percent in basis points keeps the arithmetic in integers (0.5 % = 50 bp).
  const basisPoints = Math.round(percent * 100);
  return Math.floor((usdValueCents * basisPoints + 5000) / 10_000);
}

/**
 * What a finished exchange earns: the announced reward, scaled down when less than agreed was sent
 * (announcing a large swap and sending the minimum must not earn the large reward). Never more.
 */
export function earnedRewardCents(rewardCents: number, amountAgreed: string, amountSent: string | null): number {
  const agreed = Number(amountAgreed);
  const sent = amountSent === null ? NaN : Number(amountSent);
  if (!Number.isFinite(sent) || !(agreed > 0) || sent >= agreed) return rewardCents;
  if (!(sent > 0)) return 0;
  return Math.min(rewardCents, Math.floor((rewardCents * sent) / agreed));
}

/** A new claim code: 192 random bits, URL-safe (32 characters). */
export function newClaimCode(): string {
  return randomBytes(24).toString('base64url');
}

/** Codes carry 192 bits of entropy, so a fast hash is enough: nothing to brute-force offline. */
export function hashClaimCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented code with the stored hash. */
export function claimCodeMatches(code: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const presented = Buffer.from(hashClaimCode(code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
