import { t } from '@lingui/core/macro';
import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useResendVerification } from '../api/resend-verification';
import { useVerifyEmail } from '../api/verify-email';
import { linkProblem, LinkResultCard } from '../components/link-result';
import { useSessionStore } from '../stores/session-store';
import { RichText, useLocale } from '#web/features/language';
import '../auth.css';

/** /verify-email?token=…: the link from "Confirm your email". Confirms once, or says why not and offers a new link. */
export default function VerifyEmailPage() {
  useLocale();
  usePageMeta(t`Confirm your email`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail(token);
  const resend = useResendVerification();
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);
  let content;
  if (!token) {
    content = (
      <LinkResultCard title={t`This link is not valid`} tone="error">
        <p>{t`The link has no token. Open the whole link from the email, or ask for a new one.`}</p>
      </LinkResultCard>
    );
  } else if (verify.isSuccess) {
    content = (
      <LinkResultCard title={t`Your email is confirmed`} tone="success">
        <p>{t`Thank you. We will use this address for receipts, security notices and password resets.`}</p>
        <Link className="btn btn-primary" to={signedIn ? paths.dashboard : paths.login}>
          {signedIn ? t`Go to my dashboard` : t`Log in`}
        </Link>
      </LinkResultCard>
    );
  } else if (verify.isError) {
    const problem = linkProblem(verify.error);
    content = (
      <LinkResultCard title={problem.title} tone="error">
        <p>{problem.message}</p>
        {signedIn ? (
          <>
            <button
              type="button"
              className="btn btn-primary"
              disabled={resend.isPending || resend.isSuccess}
              onClick={() => resend.mutate()}
            >
              {resend.isPending ? t`Sending…` : t`Send me a new link`}
            </button>
            <p role="status" aria-live="polite">
              {resend.isSuccess ? resend.data.message : resend.isError ? linkProblem(resend.error).message : ''}
            </p>
          </>
        ) : (
          <p>
            <RichText message={t`<0>Log in</0> to ask for a new confirmation link.`} elements={[<Link to={paths.login} />]} />
          </p>
        )}
      </LinkResultCard>
    );
  } else {
    content = (
      <LinkResultCard title={t`Confirming your email…`} tone="info">
        <p aria-busy="true">{t`One moment.`}</p>
      </LinkResultCard>
    );
  }
  return <section className="page auth-page">{content}</section>;
}
