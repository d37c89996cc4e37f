import { beforeEach, describe, expect, it } from 'vitest';
import { REWARD_CLAIM_VALIDITY_MS } from '#shared/constants';
import { clearClaims, hasStoredClaims, pruneExpiredClaims, readClaims, removeClaims, saveClaim, toPayload } from './reward-claims';

const KEY = 'olympus_reward_claims';
const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3600_000;

beforeEach(() => {
  localStorage.clear();
});

const stored = () => JSON.parse(localStorage.getItem(KEY) ?? 'null') as unknown;

describe('local reward claims (olympus_reward_claims)', () => {
  it('keeps a claim keyed by exchange id as {claimCode, potentialRewards, claimDeadline, timestamp} for 720 hours', () => {
    saveClaim('ex-1', { claimCode: 'code-1', potentialRewards: 3.25 }, NOW);
    expect(stored()).toEqual({ 'ex-1': { claimCode: 'code-1', potentialRewards: 3.25, claimDeadline: NOW + 720 * HOUR, timestamp: NOW } });
    expect(REWARD_CLAIM_VALIDITY_MS).toBe(720 * HOUR);
  });

  it("uses the server's deadline when it is sooner, and adds claims beside the others", () => {
    saveClaim('ex-1', { claimCode: 'code-1', potentialRewards: 1 }, NOW);
    saveClaim('ex-2', { claimCode: 'code-2', potentialRewards: 2, claimDeadline: new Date(NOW + 10 * HOUR).toISOString() }, NOW);
    const claims = readClaims();
    expect(Object.keys(claims)).toEqual(['ex-1', 'ex-2']);
    expect(claims['ex-2']!.claimDeadline).toBe(NOW + 10 * HOUR);
    expect(toPayload(claims)).toEqual([
      { exchangeId: 'ex-1', claimCode: 'code-1', potentialRewards: 1 },
      { exchangeId: 'ex-2', claimCode: 'code-2', potentialRewards: 2 },
    ]);
  });

  it('drops a claim once its deadline has passed', () => {
    saveClaim('old', { claimCode: 'a', potentialRewards: 1 }, NOW - 720 * HOUR - 1);
    saveClaim('new', { claimCode: 'b', potentialRewards: 2 }, NOW - HOUR);
    expect(Object.keys(pruneExpiredClaims(NOW))).toEqual(['new']);
    expect(Object.keys(stored() as object)).toEqual(['new']);
  });

  it('removes claimed or invalid claims and clears the key when none is left', () => {
    saveClaim('ex-1', { claimCode: 'a', potentialRewards: 1 }, NOW);
    saveClaim('ex-2', { claimCode: 'b', potentialRewards: 2 }, NOW);
    removeClaims(['ex-1']);
    expect(Object.keys(readClaims())).toEqual(['ex-2']);
    removeClaims(['ex-2']);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(hasStoredClaims()).toBe(false);
  });

  it('ignores malformed content and force-clears everything', () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({
        good: { claimCode: 'x', potentialRewards: 1, claimDeadline: NOW + HOUR, timestamp: NOW },
        bad: { claimCode: 5 },
        worse: 'text',
      }),
    );
    expect(Object.keys(readClaims())).toEqual(['good']);
    localStorage.setItem(KEY, 'not json');
    expect(readClaims()).toEqual({});
    expect(hasStoredClaims()).toBe(true);
    clearClaims();
    expect(hasStoredClaims()).toBe(false);
  });
});
