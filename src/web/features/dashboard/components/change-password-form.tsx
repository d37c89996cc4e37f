import { useId, useState, type FormEvent } from 'react';
import { passwordSchema } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError } from '#web/lib/api-client';
import { useChangePassword } from '../api/change-password';

type Field = 'currentPassword' | 'newPassword';

/** Needs the current password; on success the server ends every other session (docs/product.md#accounts). */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const changePassword = useChangePassword();
  const stepUp = useStepUp();
  const pending = changePassword.isPending;
  const id = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const errors: Partial<Record<Field, string>> = {};
    if (!currentPassword) errors.currentPassword = 'Current password is required';
    const parsed = passwordSchema.safeParse(newPassword);
    if (!parsed.success) errors.newPassword = parsed.error.issues[0]?.message;
    setFieldErrors(errors);
    setFormError(null);
    setSuccess(null);
    if (Object.keys(errors).length > 0) {
      document.getElementById(`${id}-${errors.currentPassword ? 'currentPassword' : 'newPassword'}`)?.focus();
      return;
    }
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword, ...stepUp.fields() });
      setCurrentPassword('');
      setNewPassword('');
      stepUp.reset();
      setSuccess('Password updated. Your other sessions have been signed out.');
      onChanged?.();
    } catch (err) {
      if (stepUp.handleError(err)) return;
      const api = err instanceof ApiError ? err : null;
      setFieldErrors((api?.fieldErrors ?? {}) as Partial<Record<Field, string>>);
      setFormError(api?.fromServer ? api.message : 'Failed to update password');
    }
  };

  const field = (name: Field, label: string, value: string, set: (v: string) => void, autoComplete: string, note?: string) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      error={fieldErrors[name]}
      note={note}
      name={name}
      type="password"
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => set(e.target.value)}
      required
    />
  );

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Change password</h2>
      <div className="form-error" role="alert" aria-live="assertive">
        {formError}
      </div>
      <p role="status" aria-live="polite" className="settings-notice">
        {success}
      </p>
      <form noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
        {field('currentPassword', 'Current password', currentPassword, setCurrentPassword, 'current-password')}
        {field(
          'newPassword',
          'New password',
          newPassword,
          setNewPassword,
          'new-password',
          'At least 8 characters. Changing it signs out your other devices.',
        )}
        <StepUpField stepUp={stepUp} disabled={pending} />
        <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending || undefined}>
          {pending ? 'Updating…' : 'Update password'}
        </button>
      </form>
    </section>
  );
}
