import { t } from '@lingui/core/macro';
import { Link, useSearchParams } from 'react-router';
import { settingsPath } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useUnsubscribe } from '../api/unsubscribe';
import { linkProblem, LinkResultCard } from '../components/link-result';
import { useLocale } from '#web/features/language';
import '../auth.css';

/** /unsubscribe?token=…: turns one kind of notification off without signing in (one click, never on load). */
export default function UnsubscribePage() {
  useLocale();
  usePageMeta(t`Email notifications`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();

  let content;
  if (!token) {
    content = (
      <LinkResultCard title={t`This link is not valid`} tone="error">
        <p>{t`The link has no token. You can turn notifications off in your settings.`}</p>
      </LinkResultCard>
    );
  } else if (unsubscribe.isSuccess) {
    content = (
      <LinkResultCard title={t`You are unsubscribed`} tone="success">
        <p>{unsubscribe.data.message}</p>
        <p className="muted">
          {t`Security notices (password or address changes, new sign-ins) are still sent. You can turn notifications back on in your settings.`}
        </p>
        <Link className="btn btn-primary" to={settingsPath('notifications')}>
          {t`Notification settings`}
        </Link>
      </LinkResultCard>
    );
  } else if (unsubscribe.isError) {
    const problem = linkProblem(unsubscribe.error);
    content = (
      <LinkResultCard title={problem.title} tone="error">
        <p>{problem.message}</p>
        <Link className="btn btn-primary" to={settingsPath('notifications')}>
          {t`Notification settings`}
        </Link>
      </LinkResultCard>
    );
  } else {
    content = (
      <div className="auth-card card">
        <h1>{t`Stop these emails?`}</h1>
        <p>{t`You will no longer receive this kind of notification by email. No sign-in needed.`}</p>
        <button
          type="button"
          className="btn btn-primary auth-submit"
          disabled={unsubscribe.isPending}
          aria-busy={unsubscribe.isPending || undefined}
          onClick={() => unsubscribe.mutate(token)}
        >
          {unsubscribe.isPending ? t`Unsubscribing…` : t`Unsubscribe`}
        </button>
      </div>
    );
  }
  return <section className="page auth-page">{content}</section>;
}
