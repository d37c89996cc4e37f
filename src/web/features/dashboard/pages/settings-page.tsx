import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../../shared/routes';
import { usePageMeta } from '../../../components/use-page-meta';
import { ConnectionsPanel } from '../../connections/components/connections-panel';
import { ChangeEmailForm } from '../components/change-email-form';
import { ChangePasswordForm } from '../components/change-password-form';
import { MailPreferencesPanel } from '../components/mail-preferences-panel';
import { SessionsList } from '../components/sessions-list';
import { WebhooksPanel } from '../../webhooks/components/webhooks-panel';

/** /dashboard/settings: security settings. Account connections (Discord, Telegram) belong here too. */
export default function SettingsPage() {
  usePageMeta('Settings');
  // A password change ends the other sessions: reload the list so it shows that.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <section className="page dashboard-page" aria-labelledby="settings-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.dashboard}>Dashboard</Link> <span aria-hidden="true">/</span> <span aria-current="page">Settings</span>
      </nav>
      <h1 id="settings-title">Settings</h1>
      <div className="settings-grid">
        <SessionsList reloadKey={sessionsVersion} />
        <ChangePasswordForm onChanged={() => setSessionsVersion((v) => v + 1)} />
        <ChangeEmailForm />
        <MailPreferencesPanel />
        <ConnectionsPanel />
        <WebhooksPanel />
      </div>
    </section>
  );
}
