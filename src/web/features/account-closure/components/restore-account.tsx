import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorCode } from '#shared/error-codes';

import type { AccountClosingDetails, RestoreAccountResponse } from '#shared/schemas/account-closure';
import type { AuthResponse } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleCredits, formatLocaleDateTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
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
 * What came back and what to do again, as the restore answered it (decision 0304); "Continue" signs in.
 */
function RestoredSummary({ response, onContinue }: { response: RestoreAccountResponse; onContinue: () => void }) {
  const id = useId();
  useLocale();
  const { restored } = response;
  const redo = restored.pausedCampaigns.length > 0 || restored.reconnect.length > 0;
  const heading = useRef<HTMLHeadingElement>(null);
  // The step changed under the person's focus (the button they pressed is gone): the heading takes it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="restore-account restored-account">
      <h1 id={`${id}-title`} tabIndex={-1} ref={heading}>
        {t`Your account is restored`}
      </h1>
      <p role="status">{t`It is no longer closing and will not be erased. We sent you a mail about it.`}</p>
      <h2>{t`What came back`}</h2>
      <ul data-testid="restored-came-back">
        <li>{t`Your balance: ${formatLocaleCredits(restored.balanceCents)} credits`}</li>
        <li>{t`Signing in, your orders and your API use`}</li>
        {restored.webhook && <li>{t`Your webhook`}</li>}
      </ul>
      {redo && (
        <>
          <h2>{t`What to do again yourself`}</h2>
          <ul data-testid="restored-to-redo">
            {restored.pausedCampaigns.map((c) => (
              <li key={c._id}>
                {t`Resume the ad campaign “${c.name}” (${formatLocaleCredits(c.reserveCents)} credits left in its budget): closing paused it.`}
              </li>
            ))}
            {restored.reconnect.map((name) => (
              <li key={name}>
                {name === 'discord'
                  ? t`Connect Discord again in Settings: closing removed the connection.`
                  : t`Connect Telegram again in Settings: closing removed the connection.`}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={onContinue}>
          {t`Continue to my dashboard`}
        </button>
      </div>
    </div>
  );
}

/**
 * "Your account is closing on …: Restore it" (decision 0255). The password just typed is sent again
 * with a code from the authenticator app (or a recovery code) when two-factor is on. Once restored, the
 * step says what came back before it signs in (decision 0304).
 */
export function RestoreAccount({ closing, username, password, rememberMe, onRestored, onCancel }: RestoreAccountProps) {
  const id = useId();
  useLocale();
  const restore = useRestoreAccount();
  const needsCode = closing.methods.length > 0;
  const [code, setCode] = useState('');
  const [restored, setRestored] = useState<RestoreAccountResponse | null>(null);
  const form = useForm<'twoFactorCode'>({
    validate: () => (needsCode && !code.trim() ? { twoFactorCode: t`Enter a code from your authenticator app or a recovery code` } : {}),
    action: async () => {
      setRestored(await restore.mutateAsync({ username, password, rememberMe, ...(needsCode ? { twoFactorCode: code.trim() } : {}) }));
    },
    onError: (err) => {
      if (err instanceof ApiError && (err.code === ErrorCode.INVALID_TWO_FACTOR_CODE || err.code === ErrorCode.TWO_FACTOR_REQUIRED)) {
        // Said on the code's field, which is emptied and focused to type another.
        const said = errorMessage(err, err.message);
        form.setErrors({ twoFactorCode: said });
        setCode('');
        form.focusFirstError({ twoFactorCode: said });
        return true;
      }
      return false;
    },
    mapFieldErrors: () => ({}),
    formError: () => t`Your account could not be restored. Try again.`,
  });

  if (restored)
    return <RestoredSummary response={restored} onContinue={() => onRestored({ user: restored.user, token: restored.token })} />;

  return (
    <div className="restore-account">
      <h1 id={`${id}-title`}>{t`Your account is closing`}</h1>
      <p>
        <RichText
          message={t`Your account is closing on <0>${formatLocaleDateTime(closing.erasureAt)}</0>. Then it is erased and any credits left are forfeited. Restore it to sign in: your balance, orders, API use and webhook come back as they were. Your ad campaigns stay paused until you resume them, and Discord or Telegram must be connected again.`}
          elements={[<strong data-testid="restore-erasure-date" />]}
        />
      </p>
      <FormError form={form} />
      <Form form={form} aria-labelledby={`${id}-title`}>
        {needsCode && (
          <TextField
            id={`${id}-code`}
            label={t`Code from your authenticator app, or a recovery code`}
            name="twoFactorCode"
            autoComplete="one-time-code"
            value={code}
            error={form.errors.twoFactorCode}
            onChange={(e) => setCode(e.target.value)}
            required
          />
        )}
        <div className="actions">
          <StatusButton busy={form.busy} busyLabel={t`Restoring…`} className="btn btn-primary">
            {t`Restore my account`}
          </StatusButton>
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            {t`Back to sign in`}
          </button>
        </div>
      </Form>
    </div>
  );
}
