import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorCode } from '#shared/error-codes';
import { paths } from '#shared/routes';
import { passwordSchema } from '#shared/schemas/auth';
import { usePageMeta } from '#web/components/use-page-meta';
import { CheckboxField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError } from '#web/lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { linkProblem, LinkResultCard } from '../components/link-result';
import { useSessionStore } from '../stores/session-store';
import { useLocale } from '#web/features/language';
import '../auth.css';

const LINK_CODES: readonly string[] = [
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.TOKEN_USED,
  ErrorCode.TOKEN_SUPERSEDED,
  ErrorCode.TOKEN_VOIDED,
  ErrorCode.TOKEN_INVALID,
];

/** /reset-password?token=…: a new password under the register rules; every session ends, then log in. */
export default function ResetPasswordPage() {
  useLocale();
  usePageMeta(t`Choose a new password`);
  const id = useId();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  // Checked by default: someone resetting may think another person got in, and that person's passkey would still sign in.
  const [removePasskeys, setRemovePasskeys] = useState(true);
  const reset = useResetPassword();
  const form = useForm<'password' | 'confirm'>({
    validate: () => {
      const next: { password?: string; confirm?: string } = {};
      const parsed = passwordSchema.safeParse(password);
      if (!parsed.success) next.password = parsed.error.issues[0]?.message;
      if (!next.password && confirm !== password) next.confirm = t`The two passwords do not match`;
      return next;
    },
    action: () => reset.mutateAsync({ token, password, removePasskeys }),
    // Every session of the account has ended, this browser's too.
    onSuccess: () => useSessionStore.getState().clearSession(),
    // The page words a failure from the request's state below (a link problem has its own card).
    mapFieldErrors: () => ({}),
    formError: () => null,
  });

  const apiError = reset.error instanceof ApiError ? reset.error : null;
  if (!token || (apiError && LINK_CODES.includes(apiError.code))) {
    const problem = token
      ? linkProblem(apiError)
      : { title: t`This link is not valid`, message: t`The link has no token. Open the whole link from the email.` };
    return (
      <section className="page auth-page">
        <LinkResultCard title={problem.title} tone="error">
          <p>{problem.message}</p>
          <Link className="btn btn-primary" to={paths.forgotPassword}>
            {t`Ask for a new link`}
          </Link>
        </LinkResultCard>
      </section>
    );
  }
  if (reset.isSuccess) {
    return (
      <section className="page auth-page">
        <LinkResultCard title={t`Your password was changed`} tone="success">
          <p>
            {reset.data.message} {t`Every device that was signed in has been signed out.`}
          </p>
          <Link className="btn btn-primary" to={paths.login}>
            {t`Log in`}
          </Link>
        </LinkResultCard>
      </section>
    );
  }

  const fieldError = (name: 'password' | 'confirm') =>
    (form.errors[name] ?? (name === 'password' ? apiError?.fieldErrors.password : undefined)) || null;
  return (
    <section className="page auth-page">
      <div className="auth-card card">
        <h1 id={`${id}-title`}>{t`Choose a new password`}</h1>
        <p className="muted">{t`At least 8 characters. A long phrase is easiest to remember. Setting it signs out every device.`}</p>
        <div className="form-error" role="alert" aria-live="assertive">
          {reset.isError && !apiError?.fieldErrors.password
            ? apiError?.fromServer
              ? apiError.message
              : t`Could not change the password. Check your connection and try again.`
            : null}
        </div>
        <Form form={form} aria-labelledby={`${id}-title`}>
          {(['password', 'confirm'] as const).map((name) => (
            <TextField
              key={name}
              id={`${id}-${name}`}
              label={name === 'password' ? t`New password` : t`Repeat the new password`}
              error={fieldError(name)}
              name={name}
              type="password"
              autoComplete="new-password"
              value={name === 'password' ? password : confirm}
              onChange={(e) => (name === 'password' ? setPassword : setConfirm)(e.target.value)}
              required
            />
          ))}
          <CheckboxField
            id={`${id}-removePasskeys`}
            label={t`Also remove every passkey from the account`}
            note={t`Recommended if someone else may have used your account: a passkey they added would still sign in. You can add yours again in Settings.`}
            name="removePasskeys"
            checked={removePasskeys}
            onChange={(e) => setRemovePasskeys(e.target.checked)}
          />
          <StatusButton busy={form.busy} busyLabel={t`Saving…`} className="btn btn-primary auth-submit">
            {t`Set new password`}
          </StatusButton>
        </Form>
      </div>
    </section>
  );
}
