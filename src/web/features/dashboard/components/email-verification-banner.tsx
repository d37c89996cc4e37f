import type { User } from '#shared/schemas/auth';
import { ApiError } from '#web/lib/api-client';
import { useResendVerification } from '#web/features/auth/account-mail';

/** Until the address is confirmed: says so, and sends the link again on request. */
export function EmailVerificationBanner({ user }: { user: User }) {
  const resend = useResendVerification();
  if (user.emailVerified) return null;
  const error =
    resend.error instanceof ApiError && resend.error.fromServer ? resend.error.message : 'Could not send the link. Try again in a moment.';
  return (
    <section className="notice verify-banner" aria-labelledby="verify-banner-title">
      <h2 id="verify-banner-title">Confirm your email address</h2>
      <p>
        We sent a link to <strong>{user.email}</strong>. Confirm it so you can reset your password if you forget it.
      </p>
      <button
        type="button"
        className="btn btn-primary btn-small"
        onClick={() => resend.mutate()}
        disabled={resend.isPending || resend.isSuccess}
        aria-busy={resend.isPending || undefined}
      >
        {resend.isPending ? 'Sending…' : resend.isSuccess ? 'Link sent' : 'Resend confirmation email'}
      </button>
      <p role="status" aria-live="polite">
        {resend.isSuccess ? resend.data.message : resend.isError ? error : ''}
      </p>
    </section>
  );
}
