import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocale } from '#web/features/language';
import { ErrorCode } from '#shared/error-codes';
import type { AuthResponse } from '#shared/schemas/auth';
import type { TwoFactorChallengeResponse } from '#shared/schemas/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
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
  useLocale();
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [value, setValue] = useState('');
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
    form.setFormError(
      err instanceof ApiError
        ? err.fromServer || err.status === 0
          ? errorMessage(err, err.message)
          : fallback
        : passkeyErrorMessage(err, fallback),
    );
    setValue('');
    inputRef.current?.focus();
  };

  // The code's field is named after the mode; every message (the check, the server's, the passkey's) is said above the form.
  const field = mode === 'totp' ? 'code' : 'recoveryCode';
  const trimmed = value.trim();
  const form = useForm<'code' | 'recoveryCode', undefined, AuthResponse>({
    validate: () => {
      if (mode === 'totp' && !/^\d{6}$/.test(trimmed.replace(/\s+/g, '')))
        return { code: t`Enter the 6-digit code from your authenticator app` };
      if (mode === 'recovery' && !trimmed) return { recoveryCode: t`Enter one of your recovery codes` };
      return {};
    },
    action: () => withCode.mutateAsync(mode === 'totp' ? { code: trimmed.replace(/\s+/g, '') } : { recoveryCode: trimmed }),
    onSuccess: onSignedIn,
    onError: (err) => {
      fail(err, t`Could not sign in. Try again.`);
      return true;
    },
  });
  const error = form.errors[field] ?? form.formError;

  const answerWithPasskey = async () => {
    if (pending) return;
    form.reset();
    try {
      onSignedIn(await withPasskey.mutateAsync());
    } catch (err) {
      fail(err, t`Could not sign in with the passkey. Try a code instead.`);
    }
  };

  const switchMode = () => {
    setMode((m) => (m === 'totp' ? 'recovery' : 'totp'));
    setValue('');
    form.reset();
  };

  return (
    <div className="login-second-step">
      <h1 id={`${id}-title`}>{t`Two-factor sign-in`}</h1>
      <p className="muted">
        {mode === 'totp'
          ? t`Enter the 6-digit code from your authenticator app.`
          : t`Enter one of the recovery codes you saved. Each works once.`}
      </p>
      <FormError form={{ formError: error }} />
      {expired ? (
        <button type="button" className="btn btn-primary auth-submit" onClick={onRestart}>
          {t`Back to sign in`}
        </button>
      ) : (
        <>
          <Form form={form} aria-labelledby={`${id}-title`}>
            <div className="field">
              <label htmlFor={`${id}-code`}>{mode === 'totp' ? t`Authentication code` : t`Recovery code`}</label>
              <input
                ref={inputRef}
                id={`${id}-code`}
                name={field}
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
            <StatusButton
              busy={pending === 'code'}
              busyLabel={t`Verifying…`}
              className="btn btn-primary auth-submit"
              disabled={pending !== null}
            >
              {t`Verify`}
            </StatusButton>
          </Form>
          <p className="auth-switch">
            <button type="button" className="link-button" onClick={switchMode}>
              {mode === 'totp' ? t`Use a recovery code` : t`Use your authenticator app`}
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
                {pending === 'passkey' ? t`Waiting for your passkey…` : t`Use a passkey`}
              </button>
            ))}
          <p className="auth-switch">
            <button type="button" className="link-button" onClick={onRestart}>
              {t`Start over`}
            </button>
          </p>
        </>
      )}
    </div>
  );
}
