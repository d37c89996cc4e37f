import { t } from '@lingui/core/macro';
import { useEffect, useRef } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { campaignReportPath, dashboardPaths, paths } from '#shared/routes';
import { QueryState } from '#web/components/ui/query-state';
import { usePageMeta } from '#web/components/use-page-meta';
import { RichText, useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { useMyCampaigns } from '../api/get-campaigns';
import { CampaignCard } from '../components/campaign-card';
import { CampaignForm } from '../components/campaign-form';
import { CampaignReport } from '../components/campaign-report';
import '../ads.css';

/**
 * /dashboard/advertise: create and fund a campaign, follow my campaigns; /dashboard/advertise/campaigns/<id>
 * the same page with that campaign's report open, an address that can be shared and reloaded
 * (docs/decisions/0321-dashboard-shell.md).
 */
export default function AdvertiseDashboardPage() {
  return (
    <Routes>
      <Route index element={<Advertise />} />
      <Route path="campaigns/:campaignId" element={<Advertise />} />
      <Route path="*" element={<Advertise />} />
    </Routes>
  );
}

function Advertise() {
  const { campaignId } = useParams();
  useLocale();
  usePageMeta(campaignId ? t`Campaign report` : t`Advertise`);
  const navigate = useNavigate();
  const campaigns = useMyCampaigns();
  const shown = campaigns.data?.find((c) => c._id === campaignId?.toLowerCase()) ?? null;
  const missing = Boolean(campaignId && campaigns.data && !shown);
  const report = useRef<HTMLDivElement>(null);
  // Opened from its address (a bookmark, a Report link): bring the report into view.
  useEffect(() => {
    if (shown) report.current?.scrollIntoView({ block: 'start' });
  }, [shown]);

  return (
    <section className="page dashboard-page" aria-labelledby="advertise-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="advertise-title">{t`Advertise`}</h1>
          <p className="muted">
            {t`Pay for ads with your credits. The budget is reserved when you create a campaign; what it does not spend comes back.`}{' '}
            <Link to={paths.advertise}>{t`Prices and rules`}</Link>
          </p>
        </div>
      </header>
      <div className="stack">
        <section aria-labelledby="my-campaigns-title" className="stack">
          <h2 id="my-campaigns-title">{t`My campaigns`}</h2>
          <QueryState
            data={campaigns.data}
            error={campaigns.isError ? errorMessage(campaigns.error, t`Failed to load your campaigns`) : null}
            onRetry={() => void campaigns.refetch()}
            loading={
              <p role="status" className="muted">
                {t`Loading your campaigns…`}
              </p>
            }
            isEmpty={(list) => list.length === 0}
            empty={<p className="muted">{t`No campaigns yet. Create your first one below.`}</p>}
          >
            {(list) => (
              <div className="grid grid-2">
                {list.map((c) => (
                  <CampaignCard key={c._id} campaign={c} reportTo={campaignReportPath(c._id)} />
                ))}
              </div>
            )}
          </QueryState>
          {missing && (
            <p className="notice" role="status">
              <RichText
                message={t`We could not find this campaign in your account. <0>All my campaigns</0>`}
                elements={[<Link key="all" to={dashboardPaths.advertise} />]}
              />
            </p>
          )}
          {shown && (
            <div ref={report} className="campaign-report-anchor">
              <CampaignReport campaign={shown} />
            </div>
          )}
        </section>
        <CampaignForm onCreated={(id) => void navigate(campaignReportPath(id))} />
      </div>
    </section>
  );
}
