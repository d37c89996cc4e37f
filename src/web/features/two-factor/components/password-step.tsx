import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '#web/lib/api-client';
import { TextField } from '#web/components/ui/forms';

/** A small form that asks for the current password (and optionally a code) before a sensitive change. */
export function PasswordStep({
  submitLabel,
  pendingLabel,
  withCode,
  onSubmit,
  onCancel,
  children,
}: {
  submitLabel: string;
  pendingLabel: string;
  withCode?: boolean;
  onSubmit: (input: { currentPassword: string; code: string }) => Promise<unknown>;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ currentPassword?: string; code?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const next: typeof errors = {};
    if (!currentPassword) next.currentPassword = 'Current password is required';
    if (withCode && !code.trim()) next.code = 'Enter a code from your authenticator app or a recovery code';
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) {
      document.getElementById(`${id}-${next.currentPassword ? 'currentPassword' : 'code'}`)?.focus();
      return;
    }
    setPending(true);
    try {
      await onSubmit({ currentPassword, code: code.trim() });
    } catch (err) {
      const api = err instanceof ApiError ? err : null;
      setErrors((api?.fieldErrors ?? {}) as typeof errors);
      setFormError(api?.fromServer || api?.status === 0 ? api.message : 'Something went wrong. Try again.');
    } finally {
      setPending(false);
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
      {withCode && (
        <TextField
          id={`${id}-code`}
          label="Authentication code or recovery code"
          error={errors.code}
          name="code"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          required
        />
      )}
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
