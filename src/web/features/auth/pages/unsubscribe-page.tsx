import { Link, useSearchParams } from 'react-router';
import { settingsPath } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useUnsubscribe } from '../api/unsubscribe';
import { linkProblem, LinkResultCard } from '../components/link-result';
import '../auth.css';

/** /unsubscribe?token=…: turns one kind of notification off without signing in (one click, never on load). */
export default function UnsubscribePage() {
  usePageMeta('Email notifications');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();

  let content;
  if (!token) {
    content = (
      <LinkResultCard title="This link is not valid" tone="error">
        <p>The link has no token. You can turn notifications off in your settings.</p>
      </LinkResultCard>
    );
  } else if (unsubscribe.isSuccess) {
    content = (
      <LinkResultCard title="You are unsubscribed" tone="success">
        <p>{unsubscribe.data.message}</p>
        <p className="muted">
          Security notices (password or address changes, new sign-ins) are still sent. You can turn notifications back on in your settings.
        </p>
        <Link className="btn btn-primary" to={settingsPath('notifications')}>
          Notification settings
        </Link>
      </LinkResultCard>
    );
  } else if (unsubscribe.isError) {
    const problem = linkProblem(unsubscribe.error);
    content = (
      <LinkResultCard title={problem.title} tone="error">
        <p>{problem.message}</p>
        <Link className="btn btn-primary" to={settingsPath('notifications')}>
          Notification settings
        </Link>
      </LinkResultCard>
    );
  } else {
    content = (
      <div className="auth-card card">
        <h1>Stop these emails?</h1>
        <p>You will no longer receive this kind of notification by email. No sign-in needed.</p>
        <button
          type="button"
          className="btn btn-primary auth-submit"
          disabled={unsubscribe.isPending}
          aria-busy={unsubscribe.isPending || undefined}
          onClick={() => unsubscribe.mutate(token)}
        >
          {unsubscribe.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
        </button>
      </div>
    );
  }
  return <section className="page auth-page">{content}</section>;
}
