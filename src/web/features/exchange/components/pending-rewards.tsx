import { plural, t } from '@lingui/core/macro';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { useGuestRewards } from '../api/get-guest-rewards-status';
import { pruneExpiredClaims, type LocalRewardClaims } from '../lib/reward-claims';
import { RichText, useLocale } from '#web/features/language';
import { formatLocaleCredits, formatLocaleDateTime } from '#web/lib/format';

const credits = (amount: number) => formatLocaleCredits(Math.round(amount * 100));

/**
 * A guest's pending rewards, kept in this browser, with their deadlines. Expired claims and those the
 * server marks invalid are removed (docs/product.md#guest-claims). `version` changes when a new claim was saved.
 */
export function PendingRewards({ version }: { version: number }) {
  useLocale();
  // What this browser keeps (expired claims dropped), read again whenever a claim was saved.
  // Storage is read once per `version` (the signal that a claim was saved), not on every render.
  const [read, setRead] = useState(() => ({ version, claims: pruneExpiredClaims() }));
  let stored = read.claims;
  if (read.version !== version) {
    stored = pruneExpiredClaims();
    setRead({ version, claims: stored });
  }
  const checked = useGuestRewards(version, stored);
  const claims: LocalRewardClaims = checked.data ?? stored;

  const entries = Object.entries(claims).sort(([, a], [, b]) => a.claimDeadline - b.claimDeadline);
  if (entries.length === 0) return null;
  const total = entries.reduce((sum, [, c]) => sum + c.potentialRewards, 0);

  return (
    <section className="card pending-rewards" aria-labelledby="pending-rewards-title">
      <h3 id="pending-rewards-title">{t`Your pending rewards`}</h3>
      <p>
        <strong data-testid="pending-rewards-total">{t`${credits(total)} credits`}</strong>{' '}
        <RichText
          message={plural(entries.length, {
            one: 'from # exchange, kept in this browser. <0>Create an account</0> or <1>log in</1> to claim them.',
            other: 'from # exchanges, kept in this browser. <0>Create an account</0> or <1>log in</1> to claim them.',
          })}
          elements={[<Link to={paths.register} />, <Link to={paths.login} />]}
        />
      </p>
      <ul className="pending-rewards-list">
        {entries.map(([exchangeId, claim]) => (
          <li key={exchangeId}>
            <span>{t`${credits(claim.potentialRewards)} credits`}</span>
            <span className="muted">{t`claim by ${formatLocaleDateTime(claim.claimDeadline)}`}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
