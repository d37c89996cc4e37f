import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '#web/lib/api-client';
import { TextField } from '#web/components/ui/forms';
import { StepUpField, useStepUp, type StepUpFieldsInput } from './step-up-field';

/**
 * A small form that asks for the current password before a sensitive change, and with `stepUp` the
 * second factor too when two-factor is on (decision 0205).
 */
export function PasswordStep({
  submitLabel,
  pendingLabel,
  pending,
  stepUp: withStepUp,
  onSubmit,
  onCancel,
  children,
}: {
  submitLabel: string;
  pendingLabel: string;
  /** The caller's mutation is running (its isPending): `onSubmit` is that mutation. */
  pending: boolean;
  stepUp?: boolean;
  onSubmit: (input: { currentPassword: string } & StepUpFieldsInput) => Promise<unknown>;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  const stepUp = useStepUp();
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<{ currentPassword?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const next: typeof errors = {};
    if (!currentPassword) next.currentPassword = 'Current password is required';
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) {
      document.getElementById(`${id}-currentPassword`)?.focus();
      return;
    }
    try {
      await onSubmit({ currentPassword, ...(withStepUp ? stepUp.fields() : {}) });
    } catch (err) {
      if (withStepUp && stepUp.handleError(err)) return;
      const api = err instanceof ApiError ? err : null;
      setErrors((api?.fieldErrors ?? {}) as typeof errors);
      setFormError(api?.fromServer || api?.status === 0 ? api.message : 'Something went wrong. Try again.');
    }
  };

  return (
    <form noValidate onSubmit={submit} className="two-factor-form">
      {children}
      <div className="form-error" role="alert" aria-live="assertive">
        {formError}
      </div>
      <TextField
        id={`${id}-currentPassword`}
        label="Current password"
        error={errors.currentPassword}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
        required
      />
      {withStepUp && <StepUpField stepUp={stepUp} disabled={pending} />}
      <div className="two-factor-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={pending} aria-busy={pending || undefined}>
          {pending ? pendingLabel : submitLabel}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
