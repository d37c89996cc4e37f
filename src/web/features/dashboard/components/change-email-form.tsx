import { ErrorCode } from '#shared/error-codes';
import { useId, useState, type FormEvent } from 'react';
import { emailSchema } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
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
  const sessionUser = useSessionUser();
  const user = sessionUser && !isGuestUser(sessionUser) ? sessionUser : null;
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const change = useChangeEmail();
  const stepUp = useStepUp();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const next: Partial<Record<Field, string>> = {};
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) next.email = parsed.error.issues[0]?.message;
    if (!currentPassword) next.currentPassword = 'Current password is required';
    setErrors(next);
    if (next.email || next.currentPassword) {
      document.getElementById(`${id}-${next.email ? 'email' : 'currentPassword'}`)?.focus();
      return;
    }
    change.mutate(
      { email: parsed.data!, currentPassword, ...stepUp.fields() },
      {
        onSuccess: () => {
          setEmail('');
          setCurrentPassword('');
          stepUp.reset();
        },
        onError: (err) => void stepUp.handleError(err),
      },
    );
  };

  const apiError = change.error instanceof ApiError ? change.error : null;
  const fieldError = (name: Field) => errors[name] ?? apiError?.fieldErrors[name];
  const aboutSecondFactor = apiError?.code === ErrorCode.TWO_FACTOR_REQUIRED || apiError?.code === ErrorCode.INVALID_TWO_FACTOR_CODE;
  const formError =
    change.isError && !aboutSecondFactor && !apiError?.fieldErrors.email && !apiError?.fieldErrors.currentPassword
      ? apiError?.fromServer
        ? apiError.message
        : 'Could not change the address. Check your connection and try again.'
      : null;

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Email address</h2>
      {user && (
        <p>
          Current address: <strong data-testid="current-email">{user.email}</strong>{' '}
          <span className="muted">({user.emailVerified ? 'confirmed' : 'not confirmed yet'})</span>
        </p>
      )}
      <div className="form-error" role="alert" aria-live="assertive">
        {formError}
      </div>
      <p role="status" aria-live="polite" className="settings-notice">
        {change.isSuccess ? change.data.message : null}
      </p>
      <form noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
        {(
          [
            ['email', 'New email address', 'email', 'email', email, setEmail],
            ['currentPassword', 'Current password', 'password', 'current-password', currentPassword, setCurrentPassword],
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
        <StepUpField stepUp={stepUp} disabled={change.isPending} />
        <button type="submit" className="btn btn-primary" disabled={change.isPending} aria-busy={change.isPending || undefined}>
          {change.isPending ? 'Sending…' : 'Change email address'}
        </button>
      </form>
    </section>
  );
}
