import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { emailSchema } from '#shared/schemas/auth';
import { usePageMeta } from '#web/components/use-page-meta';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError } from '#web/lib/api-client';
import { useForgotPassword } from '../api/forgot-password';
import { RichText, useLocale } from '#web/features/language';
import '../auth.css';

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  useLocale();
  usePageMeta(t`Forgot password`, t`Get a link to choose a new password for your Olympus account.`);
  const id = useId();
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();
  const form = useForm<'email'>({
    validate: () => {
      const parsed = emailSchema.safeParse(email);
      return parsed.success ? {} : { email: parsed.error.issues[0]?.message ?? t`Enter a valid email address` };
    },
    action: () => forgot.mutateAsync(emailSchema.parse(email)),
    // The page words a failure itself (from the request's state below); the server's field errors were never shown.
    mapFieldErrors: () => ({}),
    formError: () => null,
  });

  const apiError = forgot.error instanceof ApiError ? forgot.error : null;
  return (
    <section className="page auth-page">
      <div className="auth-card card">
        <h1 id={`${id}-title`}>{t`Forgot your password?`}</h1>
        {forgot.isSuccess ? (
          <div role="status">
            <p>{forgot.data.message}</p>
            <p className="muted">{t`The link works for 1 hour. Not there? Check your spam folder, or ask again in a few minutes.`}</p>
            <Link className="btn btn-primary" to={paths.login}>
              {t`Back to log in`}
            </Link>
          </div>
        ) : (
          <>
            <p className="muted">{t`Enter the email address of your account and we will send you a link to choose a new password.`}</p>
            <div className="form-error" role="alert" aria-live="assertive">
              {forgot.isError
                ? apiError?.fromServer
                  ? apiError.message
                  : t`Could not send the request. Check your connection and try again.`
                : null}
            </div>
            <Form form={form} aria-labelledby={`${id}-title`}>
              <TextField
                id={`${id}-email`}
                label={t`Email`}
                error={form.errors.email}
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
              />
              <StatusButton busy={form.busy} busyLabel={t`Sending…`} className="btn btn-primary auth-submit">
                {t`Send reset link`}
              </StatusButton>
            </Form>
            <p className="muted">
              <RichText message={t`Remembered it? <0>Log in</0>`} elements={[<Link to={paths.login} />]} />
            </p>
          </>
        )}
      </div>
    </section>
  );
}
