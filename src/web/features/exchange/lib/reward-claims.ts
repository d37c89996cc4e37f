/**
 * Guest reward claims kept in the browser (docs/product.md#browser-state, "Local reward claim"): local storage key
 * `olympus_reward_claims`, an object keyed by exchange id of {claimCode, potentialRewards, claimDeadline,
 * timestamp}. A claim is kept for 720 hours (docs/product.md#constants) and removed when it expires, when the server
 * marks it invalid or when it is claimed (docs/product.md#guest-claims).
 */
import { REWARD_CLAIM_VALIDITY_MS, STORAGE_KEYS } from '#shared/constants';

export interface LocalRewardClaim {
  claimCode: string;
  /** Reward credits the exchange will earn, as announced when it was made. */
  potentialRewards: number;
  /** Until when the claim can be redeemed (ms since epoch). */
  claimDeadline: number;
  /** When the claim was saved (ms since epoch). */
  timestamp: number;
}

export type LocalRewardClaims = Record<string, LocalRewardClaim>;

/** A claim as the API takes it. */
export interface ClaimPayload {
  exchangeId: string;
  claimCode: string;
  potentialRewards: number;
}

const KEY = STORAGE_KEYS.rewardClaims;

function isClaim(value: unknown): value is LocalRewardClaim {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.claimCode === 'string' &&
    c.claimCode.length > 0 &&
    typeof c.potentialRewards === 'number' &&
    Number.isFinite(c.potentialRewards) &&
    typeof c.claimDeadline === 'number' &&
    typeof c.timestamp === 'number'
  );
}

/** Every well-formed stored claim (anything else in the key is ignored). */
export function readClaims(): LocalRewardClaims {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    return {};
  }
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, LocalRewardClaim] => isClaim(entry[1])));
  } catch {
    return {};
  }
}

function writeClaims(claims: LocalRewardClaims): void {
  try {
    if (Object.keys(claims).length === 0) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, JSON.stringify(claims));
  } catch {
    // Storage unavailable (private mode, quota): the claim code was also shown on screen.
  }
}

/** Keeps a new guest claim for 720 hours (or until the server's deadline, when it is sooner). */
export function saveClaim(
  exchangeId: string,
  claim: { claimCode: string; potentialRewards: number; claimDeadline?: string | number },
  now = Date.now(),
): LocalRewardClaim {
  const localDeadline = now + REWARD_CLAIM_VALIDITY_MS;
  const serverDeadline = typeof claim.claimDeadline === 'string' ? Date.parse(claim.claimDeadline) : claim.claimDeadline;
  const stored: LocalRewardClaim = {
    claimCode: claim.claimCode,
    potentialRewards: claim.potentialRewards,
    claimDeadline: serverDeadline && Number.isFinite(serverDeadline) ? Math.min(localDeadline, serverDeadline) : localDeadline,
    timestamp: now,
  };
  writeClaims({ ...readClaims(), [exchangeId]: stored });
  return stored;
}

export function removeClaims(exchangeIds: Iterable<string>): void {
  const claims = readClaims();
  for (const id of exchangeIds) delete claims[id];
  writeClaims(claims);
}

/** Drops expired claims and answers the rest. */
export function pruneExpiredClaims(now = Date.now()): LocalRewardClaims {
  const claims = readClaims();
  const live = Object.fromEntries(Object.entries(claims).filter(([, c]) => c.claimDeadline > now));
  if (Object.keys(live).length !== Object.keys(claims).length) writeClaims(live);
  return live;
}

/** Removes every stored claim (docs/product.md#guest-claims: left-over claims are force-cleared after sign-in). */
export function clearClaims(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable.
  }
}

export function hasStoredClaims(): boolean {
  try {
    return window.localStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

export function toPayload(claims: LocalRewardClaims): ClaimPayload[] {
  return Object.entries(claims).map(([exchangeId, c]) => ({ exchangeId, claimCode: c.claimCode, potentialRewards: c.potentialRewards }));
}
