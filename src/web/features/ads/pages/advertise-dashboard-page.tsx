import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { QueryState } from '#web/components/ui/query-state';
import { usePageMeta } from '#web/components/use-page-meta';
import { errorMessage } from '#web/lib/api-client';
import { useMyCampaigns } from '../api/get-campaigns';
import { CampaignCard } from '../components/campaign-card';
import { CampaignForm } from '../components/campaign-form';
import { CampaignReport } from '../components/campaign-report';
import '../ads.css';

/** /dashboard/advertise: create and fund a campaign, follow my campaigns and their reports. */
export default function AdvertiseDashboardPage() {
  usePageMeta('Advertise');
  const campaigns = useMyCampaigns();
  const [reportOf, setReportOf] = useState<string | null>(null);
  const shown = campaigns.data?.find((c) => c._id === reportOf) ?? null;

  return (
    <section className="page dashboard-page" aria-labelledby="advertise-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1 id="advertise-title">Advertise</h1>
          <p className="muted">
            Pay for ads with your credits. The budget is reserved when you create a campaign; what it does not spend comes back.{' '}
            <Link to={paths.advertise}>Prices and rules</Link>
          </p>
        </div>
        <div className="actions">
          <Link className="btn btn-ghost" to={paths.dashboard}>
            Back to the dashboard
          </Link>
        </div>
      </header>
      <div className="stack">
        <section aria-labelledby="my-campaigns-title" className="stack">
          <h2 id="my-campaigns-title">My campaigns</h2>
          <QueryState
            data={campaigns.data}
            error={campaigns.isError ? errorMessage(campaigns.error, 'Failed to load your campaigns') : null}
            onRetry={() => void campaigns.refetch()}
            loading={
              <p role="status" className="muted">
                Loading your campaigns…
              </p>
            }
            isEmpty={(list) => list.length === 0}
            empty={<p className="muted">No campaigns yet. Create your first one below.</p>}
          >
            {(list) => (
              <div className="grid grid-2">
                {list.map((c) => (
                  <CampaignCard key={c._id} campaign={c} onReport={() => setReportOf(c._id)} />
                ))}
              </div>
            )}
          </QueryState>
          {shown && <CampaignReport campaign={shown} />}
        </section>
        <CampaignForm onCreated={(id) => setReportOf(id)} />
      </div>
    </section>
  );
}
