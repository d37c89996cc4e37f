import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useConfirmEmailChange } from '../api/confirm-email-change';
import { linkProblem, LinkResultCard } from '../components/link-result';
import { useSessionStore } from '../stores/session-store';
import '../auth.css';

/**
 * /confirm-email?token=…: the link sent to a new address. The change is made by a button, not on load,
 * so a mail scanner that opens links cannot make it.
 */
export default function ConfirmEmailPage() {
  usePageMeta('Confirm your new email address');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmailChange();
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);

  let content;
  if (!token) {
    content = (
      <LinkResultCard title="This link is not valid" tone="error">
        <p>The link has no token. Open the whole link from the email.</p>
      </LinkResultCard>
    );
  } else if (confirm.isSuccess) {
    content = (
      <LinkResultCard title="Your email address was changed" tone="success">
        <p>{confirm.data.message}</p>
        <Link className="btn btn-primary" to={signedIn ? paths.settings : paths.login}>
          {signedIn ? 'Back to settings' : 'Log in'}
        </Link>
      </LinkResultCard>
    );
  } else if (confirm.isError) {
    const problem = linkProblem(confirm.error);
    content = (
      <LinkResultCard title={problem.title} tone="error">
        <p>{problem.message}</p>
        <p>You can ask for a new link in your settings.</p>
        <Link className="btn btn-primary" to={signedIn ? paths.settings : paths.login}>
          {signedIn ? 'Go to settings' : 'Log in'}
        </Link>
      </LinkResultCard>
    );
  } else {
    content = (
      <div className="auth-card card">
        <h1>Use this email address?</h1>
        <p>Your Olympus account will use the address this link was sent to. Mail stops going to your old address.</p>
        <button
          type="button"
          className="btn btn-primary auth-submit"
          disabled={confirm.isPending}
          aria-busy={confirm.isPending || undefined}
          onClick={() => confirm.mutate(token)}
        >
          {confirm.isPending ? 'Changing…' : 'Use this address'}
        </button>
      </div>
    );
  }
  return <section className="page auth-page">{content}</section>;
}
