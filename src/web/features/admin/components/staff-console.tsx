import { Link, NavLink, Route, Routes } from 'react-router';
import { staffPaths } from '#shared/routes';
import { useSessionUser } from '#web/features/auth/user';
import { AdReviewQueue, AdsManager, StaffCampaignList } from '#web/features/ads/staff';
import { CataloguePanel } from '#web/features/catalogue/staff';
import { HelpManager } from '#web/features/help/staff';
import { SupportReportsPanel } from '#web/features/support-reports';
import { AutomationPanel } from '#web/features/support-rules/staff';
import { StaffQueue } from '#web/features/tickets';
import { SlaSettingsPanel } from '#web/features/support-sla/staff';
import { PendingClosuresPanel } from '#web/features/account-closure';
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
 * The staff area under /dashboard/staff (support and admin). The server enforces every permission;
 * this only decides what to show.
 */
export function StaffConsole() {
  const user = useSessionUser();
  const role = user && 'role' in user ? user.role : null;
  if (role !== 'support' && role !== 'admin') {
    return (
      <section className="admin-panel">
        <h2>Staff area</h2>
        <p>This area is for the support team.</p>
      </section>
    );
  }
  const isAdmin = role === 'admin';
  return (
    <div className="staff-console">
      <nav aria-label="Staff" className="staff-tabs">
        <NavLink to={STAFF_BASE} end>
          Overview
        </NavLink>
        <NavLink to={section('users')}>Users</NavLink>
        <NavLink to={section('tickets')}>Tickets</NavLink>
        <NavLink to={section('reports')}>Reports</NavLink>
        <NavLink to={section('automation')}>Automation</NavLink>
        <NavLink to={section('help')}>Help centre</NavLink>
        <NavLink to={section('sla')}>Business hours &amp; SLA</NavLink>
        <NavLink to={section('payments')}>Payments</NavLink>
        <NavLink to={section('exchanges')}>Exchanges</NavLink>
        <NavLink to={section('catalogue')}>Catalogue</NavLink>
        <NavLink to={section('ads')}>Ads</NavLink>
        <NavLink to={section('ad-review')}>Ad review</NavLink>
        <NavLink to={section('ad-campaigns')}>Ad campaigns</NavLink>
        <NavLink to={section('incidents')}>Incidents</NavLink>
        <NavLink to={section('audit')}>Audit log</NavLink>
        <NavLink to={section('mail')}>Mail</NavLink>
        <NavLink to={section('closures')}>Closing accounts</NavLink>
        {isAdmin && <NavLink to={section('api-keys')}>API keys</NavLink>}
      </nav>
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
        <Route path="*" element={<UnknownSection />} />
      </Routes>
    </div>
  );
}

/** A staff URL that names no section (or one this role may not open). */
function UnknownSection() {
  return (
    <section className="admin-panel" aria-labelledby="staff-unknown-title">
      <h2 id="staff-unknown-title">Nothing here</h2>
      <p>This part of the staff console does not exist, or your role cannot open it.</p>
      <Link to={STAFF_BASE}>Back to the overview</Link>
    </section>
  );
}
