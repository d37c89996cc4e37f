import type { ReactNode } from 'react';
import { dashboardPaths, exchangePath, paymentPath, receiptPath } from '#shared/routes';
import { SideNavLayout, type SideNavGroup } from '#web/components/side-nav/side-nav';

// One payment, one receipt and one exchange belong to the page that lists them.
const prefix = (path: (id: string) => string) => path('').replace(/\/$/, '');

const DASHBOARD_PAGES: readonly SideNavGroup[] = [
  {
    links: [
      { to: dashboardPaths.overview, label: 'Overview', end: true },
      { to: dashboardPaths.wallet, label: 'Wallet', also: [prefix(paymentPath), prefix(receiptPath)] },
      { to: dashboardPaths.exchanges, label: 'Exchange', also: [prefix(exchangePath)] },
      { to: dashboardPaths.shop, label: 'Shop and orders' },
      { to: dashboardPaths.advertise, label: 'Advertise' },
      { to: dashboardPaths.support, label: 'Support' },
      { to: dashboardPaths.settings, label: 'Settings' },
    ],
  },
];

/**
 * The signed-in dashboard: a side navigation of its pages (one menu on a phone) beside the page shown
 * (docs/decisions/0321-dashboard-shell.md). Settings and the staff console bring navigations of their own
 * and open outside it.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  return (
    <div className="page dashboard-page dashboard-shell">
      <SideNavLayout label="Dashboard" menuLabel="Dashboard page" groups={DASHBOARD_PAGES}>
        {children}
      </SideNavLayout>
    </div>
  );
}
