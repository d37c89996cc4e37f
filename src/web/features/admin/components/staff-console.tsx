import { NavLink, Route, Routes } from 'react-router';
import { paths } from '#shared/routes';
import { useSessionStore } from '#web/features/auth';
import { AdsManager } from '#web/features/ads/staff';
import { ShopManager } from '#web/features/catalogue/staff';
import { StaffQueue } from '#web/features/tickets';
import { ApiKeysPanel } from './api-keys-panel';
import { AuditPanel } from './audit-panel';
import { FlaggedAccountsPanel } from './flagged-accounts-panel';
import { IncidentsPanel } from './incidents-panel';
import { MailPanel } from './mail-panel';
import { MoneyPanel } from './money-panel';
import { OverviewPanel } from './overview-panel';
import { UsersPanel } from './users-panel';
import './admin.css';

/** Absolute links: relative ones resolve against the splat route and drift. */
const STAFF_BASE = `${paths.dashboard}/staff`;

/**
 * The staff area under /dashboard/staff (support and admin). The server enforces every permission;
 * this only decides what to show.
 */
export function StaffConsole() {
  const user = useSessionStore((s) => s.user);
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
        <NavLink to={`${STAFF_BASE}/users`}>Users</NavLink>
        <NavLink to={`${STAFF_BASE}/tickets`}>Tickets</NavLink>
        <NavLink to={`${STAFF_BASE}/payments`}>Payments</NavLink>
        <NavLink to={`${STAFF_BASE}/exchanges`}>Exchanges</NavLink>
        <NavLink to={`${STAFF_BASE}/shop`}>Shop</NavLink>
        <NavLink to={`${STAFF_BASE}/ads`}>Ads</NavLink>
        <NavLink to={`${STAFF_BASE}/incidents`}>Incidents</NavLink>
        <NavLink to={`${STAFF_BASE}/audit`}>Audit log</NavLink>
        <NavLink to={`${STAFF_BASE}/mail`}>Mail</NavLink>
        {isAdmin && <NavLink to={`${STAFF_BASE}/api-keys`}>API keys</NavLink>}
      </nav>
      <Routes>
        <Route index element={<OverviewPanel />} />
        <Route path="users" element={<><FlaggedAccountsPanel /><UsersPanel isAdmin={isAdmin} /></>} />
        <Route path="tickets" element={<StaffQueue />} />
        <Route path="payments" element={<MoneyPanel key="payments" kind="payments" />} />
        <Route path="exchanges" element={<MoneyPanel key="exchanges" kind="exchanges" />} />
        <Route path="shop" element={<ShopManager isAdmin={isAdmin} />} />
        <Route path="ads" element={<AdsManager />} />
        <Route path="incidents" element={<IncidentsPanel />} />
        <Route path="audit" element={<AuditPanel />} />
        <Route path="mail" element={<MailPanel />} />
        {isAdmin && <Route path="api-keys" element={<ApiKeysPanel />} />}
      </Routes>
    </div>
  );
}
