import { useId, useState, type FormEvent } from 'react';
import { ErrorCode } from '#shared/error-codes';
import type { AccountClosingDetails } from '#shared/schemas/account-closure';
import type { AuthResponse } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatDateTime } from '#web/lib/format';
import { useRestoreAccount } from '../api/restore-account';
import '../account-closure.css';

/** The details of a 403 ACCOUNT_CLOSING sign-in refusal, or null when the error is something else. */
export function accountClosingOf(err: unknown): AccountClosingDetails | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ACCOUNT_CLOSING) return null;
  const details = err.details as Partial<AccountClosingDetails> | null;
  if (typeof details?.erasureAt !== 'string') return null;
  return { erasureAt: details.erasureAt, methods: Array.isArray(details.methods) ? details.methods : [] };
}

interface RestoreAccountProps {
  closing: AccountClosingDetails;
  username: string;
  password: string;
  rememberMe: boolean;
  onRestored: (response: AuthResponse) => void;
  onCancel: () => void;
}

/**
 * "Your account is closing on …: Restore it" (decision 0255). The password just typed is sent again
 * with a code from the authenticator app (or a recovery code) when two-factor is on.
 */
export function RestoreAccount({ closing, username, password, rememberMe, onRestored, onCancel }: RestoreAccountProps) {
  const id = useId();
  const restore = useRestoreAccount();
  const needsCode = closing.methods.length > 0;
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (restore.isPending) return;
    setError(null);
    if (needsCode && !code.trim()) {
      setCodeError('Enter a code from your authenticator app or a recovery code');
      document.getElementById(`${id}-code`)?.focus();
      return;
    }
    setCodeError(undefined);
    try {
      onRestored(await restore.mutateAsync({ username, password, rememberMe, ...(needsCode ? { twoFactorCode: code.trim() } : {}) }));
    } catch (err) {
      if (err instanceof ApiError && (err.code === ErrorCode.INVALID_TWO_FACTOR_CODE || err.code === ErrorCode.TWO_FACTOR_REQUIRED)) {
        setCodeError(err.message);
        setCode('');
        document.getElementById(`${id}-code`)?.focus();
        return;
      }
      setError(errorMessage(err, 'Your account could not be restored. Try again.'));
    }
  }

  return (
    <div className="restore-account">
      <h1 id={`${id}-title`}>Your account is closing</h1>
      <p>
        Your account is closing on <strong data-testid="restore-erasure-date">{formatDateTime(closing.erasureAt)}</strong>. Then it is erased and any
        credits left are forfeited. Restore it to sign in: everything comes back as it was, your balance included.
      </p>
      <div className="form-error" role="alert" aria-live="assertive">
        {error}
      </div>
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`}>
        {needsCode && (
          <TextField
            id={`${id}-code`}
            label="Code from your authenticator app, or a recovery code"
            name="twoFactorCode"
            autoComplete="one-time-code"
            value={code}
            error={codeError}
            onChange={(e) => setCode(e.target.value)}
            required
          />
        )}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={restore.isPending} aria-busy={restore.isPending || undefined}>
            {restore.isPending ? 'Restoring…' : 'Restore my account'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Back to sign in
          </button>
        </div>
      </form>
    </div>
  );
}
