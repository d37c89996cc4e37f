import { t } from '@lingui/core/macro';
import { Navigate } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { AuthForm } from '../components/auth-form';
import { useSessionStore } from '../stores/session-store';
import { useLocale } from '#web/features/language';
import '../auth.css';

export default function RegisterPage() {
  useLocale();
  usePageMeta(t`Create your account`, t`Sign up for Olympus: top up credits in crypto and claim your exchange rewards.`);
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);
  if (signedIn) return <Navigate to={paths.dashboard} replace />;
  return (
    <section className="page auth-page">
      <AuthForm mode="register" />
    </section>
  );
}
