import { t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { dashboardPaths } from '#shared/routes';
import type { User } from '#shared/schemas/auth';
import { useCredits } from '#web/features/auth/credits';
import { toCents } from '#shared/fees';
import { useLocale } from '#web/features/language';
import { formatLocaleCredits } from '#web/lib/format';

/** The balance as the server has it now (the one from sign-in may be old), with a word when it could not be fetched. */
export function CreditBalanceCard({ user, children }: { user: User; children?: ReactNode }) {
  useLocale();
  const balance = useCredits(user._id, true);
  const credits = balance.data ?? user.credits;
  return (
    <section className="card credit-card" aria-labelledby="credits-title">
      <h2 id="credits-title">{t`Credit balance`}</h2>
      <p className="credit-balance" aria-live="polite">
        <span data-testid="credit-balance">{formatLocaleCredits(toCents(credits))}</span> <span className="muted">{t`credits`}</span>
      </p>
      <p className="muted">{t`1 credit = 1 USD. Top up by paying in cryptocurrency.`}</p>
      {balance.isError && (
        <p className="field-error" role="status">
          {t`Failed to fetch credits. The balance shown may be out of date.`}
        </p>
      )}
      {children}
    </section>
  );
}

/** The balance in one line, for a page where credits are spent or earned (the shop, the exchange). */
export function CreditBalanceLine({ user }: { user: User }) {
  useLocale();
  const balance = useCredits(user._id, true);
  const credits = balance.data ?? user.credits;
  return (
    <p className="credit-balance-line" aria-live="polite">
      <span className="muted">{t`Balance`}</span> <strong data-testid="credit-balance">{formatLocaleCredits(toCents(credits))}</strong>{' '}
      <span className="muted">{t`credits`}</span>
      {balance.isError && <span className="field-error"> {t`(may be out of date)`}</span>} ·{' '}
      <Link to={dashboardPaths.wallet}>{t`Top up`}</Link>
    </p>
  );
}
