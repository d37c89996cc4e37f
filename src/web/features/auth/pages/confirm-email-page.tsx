import { t } from '@lingui/core/macro';
import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useConfirmEmailChange } from '../api/confirm-email-change';
import { linkProblem, LinkResultCard } from '../components/link-result';
import { useSessionStore } from '../stores/session-store';
import { useLocale } from '#web/features/language';
import '../auth.css';

/**
 * /confirm-email?token=…: the link sent to a new address. The change is made by a button, not on load,
 * so a mail scanner that opens links cannot make it.
 */
export default function ConfirmEmailPage() {
  useLocale();
  usePageMeta(t`Confirm your new email address`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmailChange();
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);

  let content;
  if (!token) {
    content = (
      <LinkResultCard title={t`This link is not valid`} tone="error">
        <p>{t`The link has no token. Open the whole link from the email.`}</p>
      </LinkResultCard>
    );
  } else if (confirm.isSuccess) {
    content = (
      <LinkResultCard title={t`Your email address was changed`} tone="success">
        <p>{confirm.data.message}</p>
        <Link className="btn btn-primary" to={signedIn ? paths.settings : paths.login}>
          {signedIn ? t`Back to settings` : t`Log in`}
        </Link>
      </LinkResultCard>
    );
  } else if (confirm.isError) {
    const problem = linkProblem(confirm.error);
    content = (
      <LinkResultCard title={problem.title} tone="error">
        <p>{problem.message}</p>
        <p>{t`You can ask for a new link in your settings.`}</p>
        <Link className="btn btn-primary" to={signedIn ? paths.settings : paths.login}>
          {signedIn ? t`Go to settings` : t`Log in`}
        </Link>
      </LinkResultCard>
    );
  } else {
    content = (
      <div className="auth-card card">
        <h1>{t`Use this email address?`}</h1>
        <p>{t`Your Olympus account will use the address this link was sent to. Mail stops going to your old address.`}</p>
        <button
          type="button"
          className="btn btn-primary auth-submit"
          disabled={confirm.isPending}
          aria-busy={confirm.isPending || undefined}
          onClick={() => confirm.mutate(token)}
        >
          {confirm.isPending ? t`Changing…` : t`Use this address`}
        </button>
      </div>
    );
  }
  return <section className="page auth-page">{content}</section>;
}
