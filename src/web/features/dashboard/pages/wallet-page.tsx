import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { useSessionUser } from '#web/features/auth/user';
import { isGuestUser } from '#web/features/auth';
import { LedgerHistory, OutstandingNotice, PaymentHistory, TopUpPanel } from '#web/features/payments';
import { CreditBalanceCard } from '../components/credit-balance-card';

/** /dashboard/wallet: the balance, a top-up, the payments and every credit in and out. */
export default function WalletPage() {
  useLocale();
  usePageMeta(t`Wallet`);
  const user = useSessionUser();
  if (!user || isGuestUser(user)) return null;
  return (
    <section className="page dashboard-page" aria-labelledby="wallet-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="wallet-title">{t`Wallet`}</h1>
        </div>
      </header>
      <OutstandingNotice />
      <div className="stack">
        <div className="grid grid-2">
          <CreditBalanceCard user={user} />
          <TopUpPanel />
        </div>
        <PaymentHistory />
        <LedgerHistory />
      </div>
    </section>
  );
}
