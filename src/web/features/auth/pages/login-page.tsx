import { t } from '@lingui/core/macro';
import { Navigate } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { AuthForm } from '../components/auth-form';
import { useSessionStore } from '../stores/session-store';
import { useLocale } from '#web/features/language';
import '../auth.css';

export default function LoginPage() {
  useLocale();
  usePageMeta(t`Log in`, t`Log in to Olympus to see your credits, exchange rewards and support tickets.`);
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);
  if (signedIn) return <Navigate to={paths.dashboard} replace />;
  return (
    <section className="page auth-page">
      <AuthForm mode="login" />
    </section>
  );
}
