import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '#web/lib/api-client';
import { useUserTwoFactor } from '../api/get-user-two-factor';
import { useResetUserTwoFactor } from '../api/reset-user-two-factor';
import { TextField } from '#web/components/ui/forms';
import { StepUpField, useStepUp } from './step-up-field';

/**
 * Staff console (admins): turn off a user's two-factor after checking who they are. Removes the
 * authenticator app, recovery codes and passkeys; the reason goes to the audit log. Weakens someone
 * else's security, so it takes the admin's own second factor when their two-factor is on.
 */
export function AdminTwoFactorReset({ userId }: { userId: string }) {
  const id = useId();
  const load = useUserTwoFactor(userId);
  const reset = useResetUserTwoFactor(userId);
  const pending = reset.isPending;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const stepUp = useStepUp();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    if (reason.trim().length < 3) {
      setError('Say why, and how you checked who they are (at least 3 characters)');
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    if (!window.confirm('Turn off two-factor for this user? Their authenticator app, recovery codes and passkeys stop working.')) return;
    setError(null);
    try {
      await reset.mutateAsync({ reason: reason.trim(), ...stepUp.fields() });
      setReason('');
      stepUp.reset();
      toast.success('Two-factor turned off for this user');
    } catch (err) {
      // About the admin's own second factor: its field says why.
      if (stepUp.handleError(err)) return;
      const api = err instanceof ApiError ? err : null;
      setError(api?.fieldErrors.reason ?? (api?.fromServer ? api.message : 'The change failed'));
    }
  };

  const status = load.data ?? null;
  const on = status && (status.totp || status.passkeys > 0);
  return (
    <section className="admin-two-factor" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Two-factor sign-in</h3>
      {load.isPending && <p className="muted">Loading…</p>}
      {load.isError && <p className="field-error">Could not load two-factor status.</p>}
      {status && (
        <p>
          Authenticator app: {status.totp ? 'on' : 'off'} · passkeys: {status.passkeys} · recovery codes left: {status.recoveryCodesLeft}
        </p>
      )}
      {on && (
        <form noValidate onSubmit={submit}>
          <TextField
            id={`${id}-reason`}
            label="Reason for turning off two-factor (identity check done)"
            error={error}
            errorAlert
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
          />
          <StepUpField stepUp={stepUp} disabled={pending} />
          <button type="submit" className="btn btn-secondary btn-small" disabled={pending} aria-busy={pending || undefined}>
            {pending ? 'Turning off…' : 'Turn off two-factor'}
          </button>
        </form>
      )}
    </section>
  );
}
