import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../../shared/routes';
import { postGuestRewardsStatus } from '../api/exchange-api';
import { pruneExpiredClaims, removeClaims, toPayload, type LocalRewardClaims } from '../lib/reward-claims';
import { formatCreditAmount, formatDeadline } from './format';

/**
 * A guest's pending rewards, kept in this browser, with their deadlines. Expired claims and those the
 * server marks invalid are removed (spec section 4). `version` changes when a new claim was saved.
 */
export function PendingRewards({ version }: { version: number }) {
  const [claims, setClaims] = useState<LocalRewardClaims>(() => pruneExpiredClaims());

  useEffect(() => {
    const live = pruneExpiredClaims();
    setClaims(live);
    const payload = toPayload(live);
    if (payload.length === 0) return;
    let cancelled = false;
    postGuestRewardsStatus(payload).then(
      (response) => {
        if (cancelled || !response?.success) return;
        removeClaims(response.data.claims.filter((c) => !c.valid).map((c) => c.exchangeId));
        setClaims(pruneExpiredClaims());
      },
      // Could not check now: keep showing what is stored; the check runs again next time.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [version]);

  const entries = Object.entries(claims).sort(([, a], [, b]) => a.claimDeadline - b.claimDeadline);
  if (entries.length === 0) return null;
  const total = entries.reduce((sum, [, c]) => sum + c.potentialRewards, 0);

  return (
    <section className="card pending-rewards" aria-labelledby="pending-rewards-title">
      <h3 id="pending-rewards-title">Your pending rewards</h3>
      <p>
        <strong data-testid="pending-rewards-total">{formatCreditAmount(total)} credits</strong> from {entries.length}{' '}
        {entries.length === 1 ? 'exchange' : 'exchanges'}, kept in this browser. <Link to={paths.register}>Create an account</Link> or{' '}
        <Link to={paths.login}>log in</Link> to claim them.
      </p>
      <ul className="pending-rewards-list">
        {entries.map(([exchangeId, claim]) => (
          <li key={exchangeId}>
            <span>{formatCreditAmount(claim.potentialRewards)} credits</span>
            <span className="muted">claim by {formatDeadline(claim.claimDeadline)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
