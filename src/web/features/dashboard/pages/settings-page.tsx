import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ConnectionsPanel } from '#web/features/connections';
import { NotificationPreferencesPanel } from '#web/features/notifications';
import { AppearancePanel } from '../components/appearance-panel';
import { ChangeEmailForm } from '../components/change-email-form';
import { ChangePasswordForm } from '../components/change-password-form';
import { MailPreferencesPanel } from '../components/mail-preferences-panel';
import { SessionsList } from '../components/sessions-list';
import { WebhooksPanel } from '#web/features/webhooks';
import { PrivacySection } from '#web/features/privacy';
import { TwoFactorSettings } from '#web/features/two-factor';
import { CloseAccountSection, type ClosedAccountState } from '#web/features/account-closure';
import { useSessionStore } from '#web/features/auth';

/** /dashboard/settings: security settings. Account connections (Discord, Telegram) belong here too. */
export default function SettingsPage() {
  usePageMeta('Settings');
  const navigate = useNavigate();
  // Closing ended every session, this one too: forget it here and let the sign-in page say what happens next.
  const onAccountClosed = (erasureAt: string) => {
    useSessionStore.getState().clearSession();
    navigate(paths.login, { replace: true, state: { accountClosingOn: erasureAt } satisfies ClosedAccountState });
  };
  return (
    <section className="page dashboard-page" aria-labelledby="settings-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.dashboard}>Dashboard</Link> <span aria-hidden="true">/</span> <span aria-current="page">Settings</span>
      </nav>
      <h1 id="settings-title">Settings</h1>
      {/* Two columns at most; the wide sections take a whole row, so no row ends in an empty column
          (docs/decisions/0237). */}
      <div className="settings-grid grid grid-2">
        {/* A password change ends the other sessions; its mutation asks for the list again. */}
        <SessionsList />
        <ChangePasswordForm />
        <div className="span-full stack">
          <TwoFactorSettings />
        </div>
        <ChangeEmailForm />
        <MailPreferencesPanel />
        <div className="span-full">
          <NotificationPreferencesPanel />
        </div>
        <div className="span-full">
          <AppearancePanel />
        </div>
        <div className="span-full">
          <ConnectionsPanel />
        </div>
        <div className="span-full">
          <WebhooksPanel />
        </div>
        {/* Privacy: a copy of my data, how long things are kept (decisions 0250, 0251), and leaving (0255). */}
        <div className="span-full">
          <PrivacySection>
            <CloseAccountSection onClosed={onAccountClosed} />
          </PrivacySection>
        </div>
      </div>
    </section>
  );
}
