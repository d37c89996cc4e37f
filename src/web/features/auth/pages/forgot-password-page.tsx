import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { emailSchema } from '#shared/schemas/auth';
import { usePageMeta } from '#web/components/use-page-meta';
import { TextField } from '#web/components/ui/forms';
import { ApiError } from '#web/lib/api-client';
import { useForgotPassword } from '../api/forgot-password';
import '../auth.css';

/** /forgot-password: asks for a reset link. The answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  usePageMeta('Forgot password', 'Get a link to choose a new password for your Olympus account.');
  const id = useId();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const forgot = useForgotPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (forgot.isPending) return;
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Enter a valid email address');
      document.getElementById(`${id}-email`)?.focus();
      return;
    }
    setFieldError(null);
    forgot.mutate(parsed.data);
  };

  const apiError = forgot.error instanceof ApiError ? forgot.error : null;
  return (
    <section className="page auth-page">
      <div className="auth-card card">
        <h1 id={`${id}-title`}>Forgot your password?</h1>
        {forgot.isSuccess ? (
          <div role="status">
            <p>{forgot.data.message}</p>
            <p className="muted">The link works for 1 hour. Not there? Check your spam folder, or ask again in a few minutes.</p>
            <Link className="btn btn-primary" to={paths.login}>
              Back to log in
            </Link>
          </div>
        ) : (
          <>
            <p className="muted">Enter the email address of your account and we will send you a link to choose a new password.</p>
            <div className="form-error" role="alert" aria-live="assertive">
              {forgot.isError
                ? apiError?.fromServer
                  ? apiError.message
                  : 'Could not send the request. Check your connection and try again.'
                : null}
            </div>
            <form noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
              <TextField
                id={`${id}-email`}
                label="Email"
                error={fieldError}
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
              />
              <button
                type="submit"
                className="btn btn-primary auth-submit"
                disabled={forgot.isPending}
                aria-busy={forgot.isPending || undefined}
              >
                {forgot.isPending ? 'Sending…' : 'Send reset link'}
              </button>
            </form>
            <p className="muted">
              Remembered it? <Link to={paths.login}>Log in</Link>
            </p>
          </>
        )}
      </div>
    </section>
  );
}
