import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { SideNavLayout, type SideNavGroup } from '#web/components/side-nav/side-nav';
import { paths, SETTINGS_SECTIONS, settingsPath, type SettingsSection } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ConnectionsPanel } from '#web/features/connections';
import { NotificationPreferencesPanel } from '#web/features/notifications';
import { AppearancePanel } from '../components/appearance-panel';
import { LanguagePanel } from '../components/language-panel';
import { ChangeEmailForm } from '../components/change-email-form';
import { ChangePasswordForm } from '../components/change-password-form';
import { SessionsList } from '../components/sessions-list';
import { WebhooksPanel } from '#web/features/webhooks';
import { PrivacySection } from '#web/features/privacy';
import { TwoFactorSettings } from '#web/features/two-factor';
import { CloseAccountSection, type ClosedAccountState } from '#web/features/account-closure';
import { useSessionStore } from '#web/features/auth';
import { useLocale } from '#web/features/language';

const TITLES: Record<SettingsSection, MessageDescriptor> = {
  account: msg`Account`,
  security: msg`Security`,
  notifications: msg`Notifications`,
  connections: msg`Connections`,
  developers: msg`Developers`,
  privacy: msg`Privacy`,
};

/** The page title of each section, in the language on screen. */
const PAGE_TITLES: Record<SettingsSection, MessageDescriptor> = {
  account: msg`Account settings`,
  security: msg`Security settings`,
  notifications: msg`Notifications settings`,
  connections: msg`Connections settings`,
  developers: msg`Developers settings`,
  privacy: msg`Privacy settings`,
};

/**
 * Links of the single-page settings (`/dashboard/settings#sessions`, sent in mails and notices before
 * the sections had addresses) land on the section that holds that part, at that part.
 */
const SECTION_OF_ANCHOR: Record<string, SettingsSection> = {
  sessions: 'security',
  password: 'security',
  'two-factor': 'security',
  email: 'account',
  appearance: 'account',
  notifications: 'notifications',
  mail: 'notifications',
  connections: 'connections',
  webhooks: 'developers',
  api: 'developers',
  privacy: 'privacy',
  close: 'privacy',
};

const isSection = (value: string | undefined): value is SettingsSection => (SETTINGS_SECTIONS as readonly string[]).includes(value ?? '');

/**
 * /dashboard/settings/<section>: one section at a time, each with its own address, chosen from a side
 * navigation (a menu on a phone). `/dashboard/settings` opens Account, or the section an older `#part`
 * link names (docs/decisions/0320-settings-in-sections.md).
 */
export default function SettingsPage() {
  const { section } = useParams();
  const { hash } = useLocation();
  if (!isSection(section)) {
    const anchor = hash.slice(1);
    const target = SECTION_OF_ANCHOR[anchor] ?? 'account';
    return <Navigate to={`${settingsPath(target)}${SECTION_OF_ANCHOR[anchor] ? hash : ''}`} replace />;
  }
  return <SettingsSectionPage section={section} />;
}

/** The side navigation's links, named in the language on screen. */
const groups = (): readonly SideNavGroup[] => [
  { links: SETTINGS_SECTIONS.map((s) => ({ to: settingsPath(s), label: i18n._(TITLES[s]) })) },
];

function SettingsSectionPage({ section }: { section: SettingsSection }) {
  useLocale();
  usePageMeta(i18n._(PAGE_TITLES[section]));
  return (
    <section className="page dashboard-page" aria-labelledby="settings-title">
      <nav aria-label={t`Breadcrumb`} className="breadcrumb">
        <Link to={paths.dashboard}>{t`Dashboard`}</Link> <span aria-hidden="true">/</span> <Link to={paths.settings}>{t`Settings`}</Link>{' '}
        <span aria-hidden="true">/</span> <span aria-current="page">{i18n._(TITLES[section])}</span>
      </nav>
      <h1 id="settings-title">{t`Settings`}</h1>
      <SideNavLayout
        label={t`Settings sections`}
        menuLabel={t`Settings section`}
        groups={groups()}
        before={
          <p className="side-nav-back">
            <Link to={paths.dashboard}>{t`← Dashboard`}</Link>
          </p>
        }
      >
        {/* The breadcrumb and the navigation name the section; its parts bring their own headings. */}
        <SectionContent section={section} />
      </SideNavLayout>
    </section>
  );
}

function SectionContent({ section }: { section: SettingsSection }): ReactNode {
  const navigate = useNavigate();
  // Closing ended every session, this one too: forget it here and let the sign-in page say what happens next.
  const onAccountClosed = (erasureAt: string) => {
    useSessionStore.getState().clearSession();
    void navigate(paths.login, { replace: true, state: { accountClosingOn: erasureAt } satisfies ClosedAccountState });
  };
  switch (section) {
    case 'account':
      return (
        <div className="settings-grid stack">
          <ChangeEmailForm />
          <AppearancePanel />
          <LanguagePanel />
        </div>
      );
    case 'security':
      return (
        // A password change ends the other sessions; its mutation asks for the list again.
        <div className="settings-grid grid grid-2">
          <SessionsList />
          <ChangePasswordForm />
          <div className="span-full stack">
            <TwoFactorSettings />
          </div>
        </div>
      );
    case 'notifications':
      // One control per choice: the matrix's email column is the mail preferences (the unsubscribe links write it too).
      return <NotificationPreferencesPanel />;
    case 'connections':
      return <ConnectionsPanel />;
    case 'developers':
      return <WebhooksPanel />;
    case 'privacy':
      // A copy of my data, how long things are kept (decisions 0250, 0251), and leaving (0255).
      return (
        <PrivacySection>
          <CloseAccountSection onClosed={onAccountClosed} />
        </PrivacySection>
      );
  }
}
