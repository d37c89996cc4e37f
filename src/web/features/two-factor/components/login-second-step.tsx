import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorCode } from '#shared/error-codes';
import type { AuthResponse } from '#shared/schemas/auth';
import type { TwoFactorChallengeResponse } from '#shared/schemas/two-factor';
import { ApiError } from '#web/lib/api-client';
import { useCompleteSecondStep, useCompleteSecondStepWithPasskey } from '../api/complete-second-step';
import { passkeysUnavailableHere } from '../passkeys-availability';
import { passkeyErrorMessage } from './passkeys-section';
import '../two-factor.css';

/**
 * The second step of a password sign-in: a code from the authenticator app (one-time-code autocomplete),
 * a recovery code, or a passkey. `onSignedIn` receives what login answers.
 */
export function LoginSecondStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: TwoFactorChallengeResponse;
  onSignedIn: (response: AuthResponse) => void;
  onRestart: () => void;
}) {
  const id = useId();
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const withCode = useCompleteSecondStep(challenge.challenge);
  const withPasskey = useCompleteSecondStepWithPasskey(challenge.challenge);
  const pending = withCode.isPending ? 'code' : withPasskey.isPending ? 'passkey' : null;
  const inputRef = useRef<HTMLInputElement>(null);
  const passkeyOffered = challenge.methods.includes('passkey');
  const passkeyReason = passkeyOffered ? passkeysUnavailableHere() : null;

  useEffect(() => inputRef.current?.focus(), [mode]);

  const fail = (err: unknown, fallback: string) => {
    if (err instanceof ApiError && err.code === ErrorCode.CHALLENGE_EXPIRED) setExpired(true);
    setError(err instanceof ApiError ? (err.fromServer || err.status === 0 ? err.message : fallback) : passkeyErrorMessage(err, fallback));
    setValue('');
    inputRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const trimmed = value.trim();
    if (mode === 'totp' && !/^\d{6}$/.test(trimmed.replace(/\s+/g, ''))) {
      setError('Enter the 6-digit code from your authenticator app');
      inputRef.current?.focus();
      return;
    }
    if (mode === 'recovery' && !trimmed) {
      setError('Enter one of your recovery codes');
      inputRef.current?.focus();
      return;
    }
    setError(null);
    try {
      const answer = mode === 'totp' ? { code: trimmed.replace(/\s+/g, '') } : { recoveryCode: trimmed };
      onSignedIn(await withCode.mutateAsync(answer));
    } catch (err) {
      fail(err, 'Could not sign in. Try again.');
    }
  };

  const answerWithPasskey = async () => {
    if (pending) return;
    setError(null);
    try {
      onSignedIn(await withPasskey.mutateAsync());
    } catch (err) {
      fail(err, 'Could not sign in with the passkey. Try a code instead.');
    }
  };

  const switchMode = () => {
    setMode((m) => (m === 'totp' ? 'recovery' : 'totp'));
    setValue('');
    setError(null);
  };

  return (
    <div className="login-second-step">
      <h1 id={`${id}-title`}>Two-factor sign-in</h1>
      <p className="muted">
        {mode === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter one of the recovery codes you saved. Each works once.'}
      </p>
      <div className="form-error" role="alert" aria-live="assertive">
        {error}
      </div>
      {expired ? (
        <button type="button" className="btn btn-primary auth-submit" onClick={onRestart}>
          Back to sign in
        </button>
      ) : (
        <>
          <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
            <div className="field">
              <label htmlFor={`${id}-code`}>{mode === 'totp' ? 'Authentication code' : 'Recovery code'}</label>
              <input
                ref={inputRef}
                id={`${id}-code`}
                name={mode === 'totp' ? 'code' : 'recoveryCode'}
                autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
                inputMode={mode === 'totp' ? 'numeric' : 'text'}
                autoCapitalize="off"
                spellCheck={false}
                maxLength={mode === 'totp' ? 9 : 32}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                aria-invalid={error ? true : undefined}
              />
            </div>
            <button
              type="submit"
              className="btn btn-primary auth-submit"
              disabled={pending !== null}
              aria-busy={pending === 'code' || undefined}
            >
              {pending === 'code' ? 'Verifying…' : 'Verify'}
            </button>
          </form>
          <p className="auth-switch">
            <button type="button" className="link-button" onClick={switchMode}>
              {mode === 'totp' ? 'Use a recovery code' : 'Use your authenticator app'}
            </button>
          </p>
          {passkeyOffered &&
            (passkeyReason ? (
              <p className="muted passkeys-unavailable" role="note">
                {passkeyReason}
              </p>
            ) : (
              <button
                type="button"
                className="btn btn-secondary auth-submit"
                onClick={() => void answerWithPasskey()}
                disabled={pending !== null}
                aria-busy={pending === 'passkey' || undefined}
              >
                {pending === 'passkey' ? 'Waiting for your passkey…' : 'Use a passkey'}
              </button>
            ))}
          <p className="auth-switch">
            <button type="button" className="link-button" onClick={onRestart}>
              Start over
            </button>
          </p>
        </>
      )}
    </div>
  );
}
