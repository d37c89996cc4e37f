import { t } from '@lingui/core/macro';
import { QueryState } from '#web/components/ui/query-state';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { useReferralSummary } from '../api/my-referrals';
import { MyReferralsList } from '../components/my-referrals-list';
import { ReferralFigures } from '../components/referral-figures';
import { ReferralLinkCard } from '../components/referral-link-card';
import '../referrals.css';

/**
 * /dashboard/referrals: my link to share, what the programme pays, what my link has earned and the
 * people who joined with it (docs/product.md#referrals). Signed-in users only: a guest has no code, and
 * the guest dashboard has no such page.
 */
export default function MyReferralsPage() {
  useLocale();
  usePageMeta(t`Referrals`);
  const summary = useReferralSummary();
  return (
    <section className="page dashboard-page" aria-labelledby="referrals-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="referrals-title">{t`Referrals`}</h1>
          <p className="muted">{t`Invite people with your link: you earn a share of their top-ups, and they get a welcome bonus.`}</p>
        </div>
      </header>
      <div className="stack">
        <QueryState
          data={summary.data}
          loading={t`Loading your referral link…`}
          error={summary.error ? errorMessage(summary.error, t`Could not load your referral link`) : null}
          onRetry={() => void summary.refetch()}
        >
          {(data) => (
            <div className="grid grid-2 referral-cards">
              <ReferralLinkCard summary={data} />
              <ReferralFigures summary={data} />
            </div>
          )}
        </QueryState>
        <MyReferralsList />
      </div>
    </section>
  );
}
