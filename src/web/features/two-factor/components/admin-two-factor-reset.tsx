import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { useLocale } from '#web/features/language';
import toast from 'react-hot-toast';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useUserTwoFactor } from '../api/get-user-two-factor';
import { useResetUserTwoFactor } from '../api/reset-user-two-factor';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from './step-up-field';

/**
 * Staff console (admins): turn off a user's two-factor after checking who they are. Removes the
 * authenticator app, recovery codes and passkeys; the reason goes to the audit log. Weakens someone
 * else's security, so it takes the admin's own second factor when their two-factor is on.
 */
export function AdminTwoFactorReset({ userId }: { userId: string }) {
  const id = useId();
  useLocale();
  const load = useUserTwoFactor(userId);
  const reset = useResetUserTwoFactor(userId);
  const pending = reset.isPending;
  const [reason, setReason] = useState('');
  const stepUp = useStepUp();
  // Every message shows on the reason field; focus goes there only when the reason is too short.
  const form = useForm<'reason'>({
    focus: 'precheck',
    validate: () => (reason.trim().length < 3 ? { reason: t`Say why, and how you checked who they are (at least 3 characters)` } : {}),
    action: async () => {
      if (!window.confirm(t`Turn off two-factor for this user? Their authenticator app, recovery codes and passkeys stop working.`)) {
        return false;
      }
      await reset.mutateAsync({ reason: reason.trim(), ...stepUp.fields() });
      return true;
    },
    onSuccess: (done) => {
      if (!done) return;
      setReason('');
      stepUp.reset();
      toast.success(t`Two-factor turned off for this user`);
    },
    // About the admin's own second factor: its field says why.
    onError: (err) => stepUp.handleError(err),
    mapFieldErrors: (fields) => (fields.reason ? { reason: fields.reason } : {}),
    formError: (err, fields) =>
      fields.reason ? null : err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`The change failed`,
  });

  const status = load.data ?? null;
  const on = status && (status.totp || status.passkeys > 0);
  return (
    <section className="admin-two-factor" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`Two-factor sign-in`}</h3>
      {load.isPending && <p className="muted">{t`Loading…`}</p>}
      {load.isError && <p className="field-error">{t`Could not load two-factor status.`}</p>}
      {status && (
        <p>
          {status.totp
            ? t`Authenticator app: on · passkeys: ${status.passkeys} · recovery codes left: ${status.recoveryCodesLeft}`
            : t`Authenticator app: off · passkeys: ${status.passkeys} · recovery codes left: ${status.recoveryCodesLeft}`}
        </p>
      )}
      {on && (
        <Form form={form}>
          <TextField
            id={`${id}-reason`}
            name="reason"
            label={t`Reason for turning off two-factor (identity check done)`}
            error={form.errors.reason ?? form.formError}
            errorAlert
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
          />
          <StepUpField stepUp={stepUp} disabled={pending} />
          <StatusButton busy={pending} busyLabel={t`Turning off…`} className="btn btn-secondary btn-small">
            {t`Turn off two-factor`}
          </StatusButton>
        </Form>
      )}
    </section>
  );
}
