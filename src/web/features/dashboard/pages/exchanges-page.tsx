import { CreditBalanceLine } from '../components/credit-balance-card';
import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { useSessionUser } from '#web/features/auth/user';
import { isGuestUser } from '#web/features/auth';
import { ClaimRewardForm, LazyExchangePanel } from '#web/features/exchange';

/** /dashboard/exchanges: swap crypto, follow the exchanges and claim a guest exchange's reward. */
export default function ExchangesPage() {
  useLocale();
  usePageMeta(t`Exchange`);
  const user = useSessionUser();
  if (!user || isGuestUser(user)) return null;
  return (
    <section className="page dashboard-page" aria-labelledby="exchanges-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="exchanges-title">{t`Exchange`}</h1>
        </div>
        <CreditBalanceLine user={user} />
      </header>
      <div className="stack">
        <LazyExchangePanel />
        <ClaimRewardForm userId={user._id} />
      </div>
    </section>
  );
}
