import { t } from '@lingui/core/macro';
import { ErrorCode } from '#shared/error-codes';
import { useLocale } from '#web/features/language';
import { useCallback, useId, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { TwoFactorMethod } from '#shared/schemas/two-factor';
import { TextField } from '#web/components/ui/forms';
import { ApiError } from '#web/lib/api-client';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { useStepUpPasskey, type StepUpAssertion } from '../api/step-up-passkey';
import { passkeyErrorMessage, passkeysUnavailableHere } from '../passkeys-availability';
import '../two-factor.css';

type Assertion = StepUpAssertion;

/** The second-factor fields a sensitive change sends (`STEP_UP_FIELDS` of the shared schemas). */
export interface StepUpFieldsInput {
  twoFactorCode?: string;
  twoFactorAssertion?: Assertion;
}

/**
 * The state of the second factor of one sensitive change (decision 0205). Active when the account has
 * two-factor on (the authenticator app or a passkey), or once the server answered TWO_FACTOR_REQUIRED.
 */
export interface StepUp {
  active: boolean;
  methods: TwoFactorMethod[];
  code: string;
  setCode: (code: string) => void;
  error: string | null;
  inputId: string;
  /** The fields to send with the change: the code typed, or the passkey answer just given. */
  fields: () => StepUpFieldsInput;
  /** After a refused change: true when the refusal was about the second factor (the field shows why). */
  handleError: (err: unknown) => boolean;
  /** After a change made: the code is spent. */
  reset: () => void;
  /** Set by "Use a passkey" just before it resubmits the form. */
  assertion: { current: Assertion | null };
  setError: (error: string | null) => void;
}

function methodsOfStatus(status: { totp: boolean; passkeys: number } | undefined): TwoFactorMethod[] {
  if (!status) return [];
  const methods: TwoFactorMethod[] = status.totp ? ['totp', 'recovery'] : [];
  if (status.passkeys > 0) methods.push('passkey');
  return methods;
}

export function useStepUp(): StepUp {
  const status = useTwoFactorStatus();
  const inputId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [answered, setAnswered] = useState<TwoFactorMethod[] | null>(null);
  const assertion = useRef<Assertion | null>(null);
  const fromStatus = methodsOfStatus(status.data);
  const methods = answered ?? fromStatus;

  const fields = useCallback((): StepUpFieldsInput => {
    const given = assertion.current;
    assertion.current = null;
    if (given) return { twoFactorAssertion: given };
    const trimmed = code.trim();
    return trimmed ? { twoFactorCode: trimmed } : {};
  }, [code]);

  const handleError = useCallback(
    (err: unknown): boolean => {
      if (!(err instanceof ApiError)) return false;
      if (err.code === ErrorCode.TWO_FACTOR_REQUIRED) {
        const told = (err.details as { methods?: TwoFactorMethod[] } | null | undefined)?.methods;
        // The staff console's own gate (no two-factor set up at all) is not a step-up.
        if (!Array.isArray(told) || told.length === 0) return false;
        setAnswered(told);
        setError(err.message);
        setCode('');
        setTimeout(() => document.getElementById(inputId)?.focus(), 0);
        return true;
      }
      if (err.code === ErrorCode.INVALID_TWO_FACTOR_CODE) {
        setError(err.message);
        setCode('');
        setTimeout(() => document.getElementById(inputId)?.focus(), 0);
        return true;
      }
      return false;
    },
    [inputId],
  );

  // After a change made, the account's status (refreshed by its query) decides again.
  const reset = useCallback(() => {
    setCode('');
    setError(null);
    setAnswered(null);
    assertion.current = null;
  }, []);

  return useMemo(
    () => ({ active: methods.length > 0, methods, code, setCode, error, setError, inputId, fields, handleError, reset, assertion }),
    [methods, code, error, inputId, fields, handleError, reset],
  );
}

/**
 * The second factor inside the form of a sensitive change: a code (authenticator app or recovery code)
 * and "Use a passkey" when the account has one, which asks the passkey and resubmits the form. Renders
 * nothing while the account has no two-factor. Errors are announced (role="alert").
 */
export function StepUpField({ stepUp, disabled }: { stepUp: StepUp; disabled?: boolean }) {
  useLocale();
  const passkey = useStepUpPasskey();
  const waiting = passkey.isPending;
  if (!stepUp.active) return null;
  const withCode = stepUp.methods.includes('totp');
  const withPasskey = stepUp.methods.includes('passkey');
  const passkeyReason = withPasskey ? passkeysUnavailableHere() : null;

  const answerWithPasskey = async (event: MouseEvent<HTMLButtonElement>) => {
    const form = event.currentTarget.form;
    stepUp.setError(null);
    try {
      stepUp.assertion.current = await passkey.mutateAsync();
      form?.requestSubmit();
    } catch (err) {
      stepUp.setError(passkeyErrorMessage(err, t`Could not use the passkey. Try again or use a code.`));
    }
  };

  return (
    <div className="step-up-field" role="group" aria-labelledby={`${stepUp.inputId}-legend`}>
      <p id={`${stepUp.inputId}-legend`} className="step-up-legend">
        {t`Two-factor confirmation`}
      </p>
      {withCode ? (
        <TextField
          id={stepUp.inputId}
          label={t`Authentication code or recovery code`}
          note={t`Two-factor sign-in is on: confirm this change with a code from your authenticator app or a recovery code.`}
          error={stepUp.error}
          errorAlert
          name="twoFactorCode"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={32}
          value={stepUp.code}
          onChange={(e) => stepUp.setCode(e.target.value)}
        />
      ) : (
        <>
          <p className="muted">{t`Two-factor sign-in is on: confirm this change with your passkey.`}</p>
          <p id={stepUp.inputId} className="field-error" role="alert" tabIndex={-1}>
            {stepUp.error}
          </p>
        </>
      )}
      {withPasskey &&
        (passkeyReason ? (
          <p className="muted passkeys-unavailable" role="note">
            {passkeyReason}
          </p>
        ) : (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={(e) => void answerWithPasskey(e)}
            disabled={disabled || waiting}
            aria-busy={waiting || undefined}
          >
            {waiting ? t`Waiting for your passkey…` : t`Use a passkey`}
          </button>
        ))}
    </div>
  );
}
