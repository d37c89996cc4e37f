import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ConnectionsPanel } from '#web/features/connections';
import { ChangeEmailForm } from '../components/change-email-form';
import { ChangePasswordForm } from '../components/change-password-form';
import { MailPreferencesPanel } from '../components/mail-preferences-panel';
import { SessionsList } from '../components/sessions-list';
import { WebhooksPanel } from '#web/features/webhooks';
import { TwoFactorSettings } from '#web/features/two-factor';

/** /dashboard/settings: security settings. Account connections (Discord, Telegram) belong here too. */
export default function SettingsPage() {
  usePageMeta('Settings');
  return (
    <section className="page dashboard-page" aria-labelledby="settings-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.dashboard}>Dashboard</Link> <span aria-hidden="true">/</span> <span aria-current="page">Settings</span>
      </nav>
      <h1 id="settings-title">Settings</h1>
      <div className="settings-grid">
        {/* A password change ends the other sessions; its mutation asks for the list again. */}
        <SessionsList />
        <ChangePasswordForm />
        <TwoFactorSettings />
        <ChangeEmailForm />
        <MailPreferencesPanel />
        <ConnectionsPanel />
        <WebhooksPanel />
      </div>
    </section>
  );
}
