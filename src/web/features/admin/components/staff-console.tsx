import { t } from '@lingui/core/macro';
import { Link, Route, Routes } from 'react-router';
import { paths, staffPaths } from '#shared/routes';
import { SideNavLayout, type SideNavGroup } from '#web/components/side-nav/side-nav';
import { useSessionUser } from '#web/features/auth/user';
import { AdReviewQueue, AdsManager, StaffCampaignList } from '#web/features/ads/staff';
import { CataloguePanel } from '#web/features/catalogue/staff';
import { HelpManager } from '#web/features/help/staff';
import { SupportReportsPanel } from '#web/features/support-reports';
import { AutomationPanel } from '#web/features/support-rules/staff';
import { StaffQueue } from '#web/features/tickets';
import { SlaSettingsPanel } from '#web/features/support-sla/staff';
import { PendingClosuresPanel } from '#web/features/account-closure';
import { StaffReferralsPanel } from '#web/features/referrals/staff';
import { useLocale } from '#web/features/language';
import { AdjustmentRequestsPanel } from './adjustment-requests-panel';
import { ApiKeysPanel } from './api-keys-panel';
import { AuditPanel } from './audit-panel';
import { FlaggedAccountsPanel } from './flagged-accounts-panel';
import { IncidentsPanel } from './incidents-panel';
import { MailPanel } from './mail-panel';
import { MoneyPanel } from './money-panel';
import { OverviewPanel } from './overview-panel';
import { UserDetailRoute, UsersPanel } from './users-panel';
import './admin.css';

// Absolute links (relative ones resolve against the splat route and drift); every section and a
// user's detail have a URL of their own that can be shared and reloaded (docs/decisions/0236).
const { overview: STAFF_BASE, section } = staffPaths;

/**
 * The console's sections grouped by what they are about (docs/decisions/0321-dashboard-shell.md), in the
 * language on screen: called while rendering.
 */
function staffGroups(isAdmin: boolean): SideNavGroup[] {
  return [
    { links: [{ to: STAFF_BASE, label: t`Overview`, end: true }] },
    {
      title: t`People`,
      links: [
        { to: section('users'), label: t`Users` },
        { to: section('closures'), label: t`Closing accounts` },
      ],
    },
    {
      title: t`Money`,
      links: [
        { to: section('payments'), label: t`Payments` },
        { to: section('exchanges'), label: t`Exchanges` },
        { to: section('catalogue'), label: t`Catalogue` },
        ...(isAdmin ? [{ to: section('referrals'), label: t`Referrals` }] : []),
      ],
    },
    {
      title: t`Support`,
      links: [
        { to: section('tickets'), label: t`Tickets` },
        { to: section('reports'), label: t`Reports` },
        { to: section('automation'), label: t`Automation` },
        { to: section('sla'), label: t`Business hours & SLA` },
      ],
    },
    {
      title: t`Content`,
      links: [
        { to: section('help'), label: t`Help centre` },
        { to: section('ads'), label: t`Ads` },
        { to: section('ad-review'), label: t`Ad review` },
        { to: section('ad-campaigns'), label: t`Ad campaigns` },
      ],
    },
    {
      title: t`Operations`,
      links: [
        { to: section('incidents'), label: t`Incidents` },
        { to: section('audit'), label: t`Audit log` },
        { to: section('mail'), label: t`Mail` },
        ...(isAdmin ? [{ to: section('api-keys'), label: t`API keys` }] : []),
      ],
    },
  ];
}

/**
 * The staff area under /dashboard/staff (support and admin). The server enforces every permission;
 * this only decides what to show.
 */
export function StaffConsole() {
  const user = useSessionUser();
  useLocale();
  const role = user && 'role' in user ? user.role : null;
  if (role !== 'support' && role !== 'admin') {
    return (
      <section className="admin-panel">
        <h2>{t`Staff area`}</h2>
        <p>{t`This area is for the support team.`}</p>
      </section>
    );
  }
  const isAdmin = role === 'admin';
  return (
    <SideNavLayout
      className="staff-console"
      label={t`Staff`}
      menuLabel={t`Staff console section`}
      groups={staffGroups(isAdmin)}
      before={
        <p className="side-nav-back">
          <Link to={paths.dashboard}>← {t`Dashboard`}</Link>
        </p>
      }
    >
      <Routes>
        <Route index element={<OverviewPanel />} />
        <Route
          path="users"
          element={
            <>
              <FlaggedAccountsPanel />
              {/* Four eyes: every large adjustment waiting for a second admin (admins only). */}
              {isAdmin && <AdjustmentRequestsPanel />}
              <UsersPanel />
            </>
          }
        />
        <Route path="users/:id" element={<UserDetailRoute isAdmin={isAdmin} />} />
        <Route path="tickets/:ticketId?" element={<StaffQueue />} />
        <Route path="reports" element={<SupportReportsPanel />} />
        <Route path="automation" element={<AutomationPanel isAdmin={isAdmin} />} />
        <Route path="help" element={<HelpManager />} />
        <Route path="sla" element={<SlaSettingsPanel isAdmin={isAdmin} />} />
        <Route path="payments" element={<MoneyPanel key="payments" kind="payments" />} />
        <Route path="exchanges" element={<MoneyPanel key="exchanges" kind="exchanges" />} />
        <Route path="catalogue" element={<CataloguePanel isAdmin={isAdmin} />} />
        <Route path="ads" element={<AdsManager />} />
        <Route path="ad-review" element={<AdReviewQueue />} />
        <Route path="ad-campaigns" element={<StaffCampaignList isAdmin={isAdmin} />} />
        <Route path="incidents" element={<IncidentsPanel />} />
        <Route path="audit" element={<AuditPanel />} />
        <Route path="mail" element={<MailPanel />} />
        <Route path="closures" element={<PendingClosuresPanel isAdmin={isAdmin} />} />
        {isAdmin && <Route path="api-keys" element={<ApiKeysPanel />} />}
        {isAdmin && <Route path="referrals" element={<StaffReferralsPanel />} />}
        <Route path="*" element={<UnknownSection />} />
      </Routes>
    </SideNavLayout>
  );
}

/** A staff URL that names no section (or one this role may not open). */
function UnknownSection() {
  useLocale();
  return (
    <section className="admin-panel" aria-labelledby="staff-unknown-title">
      <h2 id="staff-unknown-title">{t`Nothing here`}</h2>
      <p>{t`This part of the staff console does not exist, or your role cannot open it.`}</p>
      <Link to={STAFF_BASE}>{t`Back to the overview`}</Link>
    </section>
  );
}
