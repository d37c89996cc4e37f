import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { dashboardPaths, exchangePath, paymentPath, receiptPath } from '#shared/routes';
import { SideNavLayout, type SideNavGroup, type SideNavLink } from '#web/components/side-nav/side-nav';
import { useLocale } from '#web/features/language';

// One payment, one receipt and one exchange belong to the page that lists them.
const prefix = (path: (id: string) => string) => path('').replace(/\/$/, '');

// Labels are translated when the navigation renders, so a change of language reaches them (decision 0326).
const DASHBOARD_PAGES: ReadonlyArray<{ links: ReadonlyArray<Omit<SideNavLink, 'label'> & { label: MessageDescriptor }> }> = [
  {
    links: [
      { to: dashboardPaths.overview, label: msg`Overview`, end: true },
      { to: dashboardPaths.wallet, label: msg`Wallet`, also: [prefix(paymentPath), prefix(receiptPath)] },
      { to: dashboardPaths.exchanges, label: msg`Exchange`, also: [prefix(exchangePath)] },
      { to: dashboardPaths.shop, label: msg`Shop and orders` },
      { to: dashboardPaths.advertise, label: msg`Advertise` },
      { to: dashboardPaths.referrals, label: msg`Referrals` },
      { to: dashboardPaths.support, label: msg`Support` },
      { to: dashboardPaths.settings, label: msg`Settings` },
    ],
  },
];

/**
 * The signed-in dashboard: a side navigation of its pages (one menu on a phone) beside the page shown
 * (docs/decisions/0321-dashboard-shell.md). Settings and the staff console bring navigations of their own
 * and open outside it.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  useLocale();
  const groups: SideNavGroup[] = DASHBOARD_PAGES.map((group) => ({
    links: group.links.map((link) => ({ ...link, label: i18n._(link.label) })),
  }));
  return (
    <div className="page dashboard-page dashboard-shell">
      <SideNavLayout label={t`Dashboard`} menuLabel={t`Dashboard page`} groups={groups}>
        {children}
      </SideNavLayout>
    </div>
  );
}
