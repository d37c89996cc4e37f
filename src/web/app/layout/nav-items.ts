import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { paths } from '#shared/routes';

export interface NavItem {
  to: string;
  /** Translated where it is shown (`i18n._(label)`), so a change of language reaches it (decision 0326). */
  label: MessageDescriptor;
}

/** The header's main navigation, in display order. Account links are added by session state. */
export const MAIN_NAV: readonly NavItem[] = [
  { to: paths.home, label: msg`Home` },
  { to: paths.jobs, label: msg`Jobs` },
  { to: paths.portfolio, label: msg`Portfolio` },
  { to: paths.reviews, label: msg`Reviews` },
  { to: paths.patchNotes, label: msg`Patch Notes` },
  { to: paths.status, label: msg`Status` },
];
