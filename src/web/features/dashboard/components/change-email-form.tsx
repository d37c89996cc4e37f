import { t } from '@lingui/core/macro';
import { ErrorCode } from '#shared/error-codes';
import { RichText, useLocale } from '#web/features/language';
import { useId, useState } from 'react';
import { emailSchema } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError } from '#web/lib/api-client';
import { isGuestUser } from '#web/features/auth';
import { useSessionUser } from '#web/features/auth/user';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { useChangeEmail } from '../api/change-email';

type Field = 'email' | 'currentPassword';

/**
 * Change of address: needs the current password, and the second factor when two-factor is on (decision
 * 0205); the change is made by the link sent to the new address.
 */
export function ChangeEmailForm() {
  const id = useId();
  useLocale();
  const sessionUser = useSessionUser();
  const user = sessionUser && !isGuestUser(sessionUser) ? sessionUser : null;
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const change = useChangeEmail();
  const stepUp = useStepUp();
  // Keyed by the controls' names (the address's is newEmail).
  const form = useForm<'newEmail' | 'currentPassword'>({
    validate: () => {
      const next: { newEmail?: string; currentPassword?: string } = {};
      const parsed = emailSchema.safeParse(email);
      if (!parsed.success) next.newEmail = parsed.error.issues[0]?.message;
      if (!currentPassword) next.currentPassword = t`Current password is required`;
      return next;
    },
    action: () => change.mutateAsync({ email: emailSchema.parse(email), currentPassword, ...stepUp.fields() }),
    onSuccess: () => {
      setEmail('');
      setCurrentPassword('');
      stepUp.reset();
    },
    onError: (err) => stepUp.handleError(err),
    // The form words a failure from the request's state below.
    mapFieldErrors: () => ({}),
    formError: () => null,
  });

  const apiError = change.error instanceof ApiError ? change.error : null;
  const fieldError = (name: Field) => form.errors[name === 'email' ? 'newEmail' : name] ?? apiError?.fieldErrors[name];
  const aboutSecondFactor = apiError?.code === ErrorCode.TWO_FACTOR_REQUIRED || apiError?.code === ErrorCode.INVALID_TWO_FACTOR_CODE;
  const formError =
    change.isError && !aboutSecondFactor && !apiError?.fieldErrors.email && !apiError?.fieldErrors.currentPassword
      ? apiError?.fromServer
        ? apiError.message
        : t`Could not change the address. Check your connection and try again.`
      : null;

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Email address`}</h2>
      {user && (
        <p>
          <RichText
            message={
              user.emailVerified
                ? t`Current address: <0>${user.email}</0> <1>(confirmed)</1>`
                : t`Current address: <0>${user.email}</0> <1>(not confirmed yet)</1>`
            }
            elements={[<strong data-testid="current-email" />, <span className="muted" />]}
          />
        </p>
      )}
      <div className="form-error" role="alert" aria-live="assertive">
        {formError}
      </div>
      <p role="status" aria-live="polite" className="settings-notice">
        {change.isSuccess ? change.data.message : null}
      </p>
      <Form form={form} aria-labelledby={`${id}-title`}>
        {(
          [
            ['email', t`New email address`, 'email', 'email', email, setEmail],
            ['currentPassword', t`Current password`, 'password', 'current-password', currentPassword, setCurrentPassword],
          ] as const
        ).map(([name, label, type, autoComplete, value, set]) => (
          <TextField
            key={name}
            id={`${id}-${name}`}
            label={label}
            error={fieldError(name)}
            name={name === 'email' ? 'newEmail' : name}
            type={type}
            autoComplete={autoComplete}
            value={value}
            onChange={(e) => set(e.target.value)}
            required
          />
        ))}
        <StepUpField stepUp={stepUp} disabled={form.busy} />
        <StatusButton busy={form.busy} busyLabel={t`Sending…`} className="btn btn-primary">
          {t`Change email address`}
        </StatusButton>
      </Form>
    </section>
  );
}
