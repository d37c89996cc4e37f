import { describe, expect, it } from 'vitest';
import { currentLink, type SideNavGroup } from './side-nav';

const groups: SideNavGroup[] = [
  {
    links: [
      { to: '/dashboard', label: 'Overview', end: true },
      { to: '/dashboard/wallet', label: 'Wallet', also: ['/dashboard/payments', '/dashboard/receipts'] },
      { to: '/dashboard/exchanges', label: 'Exchange' },
      { to: '/dashboard/settings', label: 'Settings' },
    ],
  },
  { title: 'More', links: [{ to: '/dashboard/settings/security', label: 'Security' }] },
];

describe('currentLink', () => {
  it.each([
    ['/dashboard', 'Overview'],
    ['/dashboard/', 'Overview'],
    ['/dashboard/wallet', 'Wallet'],
    // One payment, one receipt belong to the wallet; one exchange to the exchange page.
    ['/dashboard/payments/abc', 'Wallet'],
    ['/dashboard/receipts/abc', 'Wallet'],
    ['/dashboard/exchanges/abc', 'Exchange'],
    // The longest address that starts the path wins, across groups.
    ['/dashboard/settings/security', 'Security'],
    ['/dashboard/settings/account', 'Settings'],
  ])('%s belongs to %s', (path, label) => {
    expect(currentLink(groups, path)?.label).toBe(label);
  });

  it.each(['/dashboard/unknown', '/dashboard/walletish', '/elsewhere'])(
    '%s belongs to none (an end link only on its own address)',
    (path) => {
      expect(currentLink(groups, path)).toBeUndefined();
    },
  );
});
