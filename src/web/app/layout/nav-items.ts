import { paths } from '#shared/routes';

export interface NavItem {
  to: string;
  label: string;
}

/** The header's main navigation, in display order. Account links are added by session state. */
export const MAIN_NAV: readonly NavItem[] = [
  { to: paths.home, label: 'Home' },
  { to: paths.jobs, label: 'Jobs' },
  { to: paths.portfolio, label: 'Portfolio' },
  { to: paths.reviews, label: 'Reviews' },
  { to: paths.patchNotes, label: 'Patch Notes' },
  { to: paths.status, label: 'Status' },
];
