import { t } from '@lingui/core/macro';
import type { User } from '#shared/schemas/auth';
import { RichText, useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useResendVerification } from '#web/features/auth/account-mail';

/** Until the address is confirmed: says so, and sends the link again on request. */
export function EmailVerificationBanner({ user }: { user: User }) {
  useLocale();
  const resend = useResendVerification();
  if (user.emailVerified) return null;
  const error =
    resend.error instanceof ApiError && resend.error.fromServer
      ? errorMessage(resend.error, resend.error.message)
      : t`Could not send the link. Try again in a moment.`;
  return (
    <section className="notice verify-banner" aria-labelledby="verify-banner-title">
      <h2 id="verify-banner-title">{t`Confirm your email address`}</h2>
      <p>
        <RichText
          message={t`We sent a link to <0>${user.email}</0>. Confirm it so you can reset your password if you forget it.`}
          elements={[<strong />]}
        />
      </p>
      <button
        type="button"
        className="btn btn-primary btn-small"
        onClick={() => resend.mutate()}
        disabled={resend.isPending || resend.isSuccess}
        aria-busy={resend.isPending || undefined}
      >
        {resend.isPending ? t`Sending…` : resend.isSuccess ? t`Link sent` : t`Resend confirmation email`}
      </button>
      <p role="status" aria-live="polite">
        {resend.isSuccess ? resend.data.message : resend.isError ? error : ''}
      </p>
    </section>
  );
}
