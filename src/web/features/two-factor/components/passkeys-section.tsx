import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import type { Passkey } from '#shared/schemas/two-factor';
import toast from 'react-hot-toast';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useAddPasskey } from '../api/add-passkey';
import { usePasskeys } from '../api/get-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { passkeyErrorMessage, passkeyReasonText, passkeysUnavailableHere } from '../passkeys-availability';
import { TextField } from '#web/components/ui/forms';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError } from '#web/lib/api-client';
import { PasswordStep } from './password-step';
import { StepUpField, useStepUp, type StepUpFieldsInput } from './step-up-field';

export { passkeyErrorMessage } from '../passkeys-availability';

/** Confirms the removal of one passkey, with the second factor (decision 0205), in place of the list item's button. */
function RemovePasskeyForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  useLocale();
  const remove = useRemovePasskey();
  const stepUp = useStepUp();
  const form = useForm({
    action: () => remove.mutateAsync({ id: passkey._id, ...stepUp.fields() }),
    onSuccess: () => {
      toast.success(t`Passkey removed`);
      onDone();
    },
    onError: (err) => stepUp.handleError(err),
    mapFieldErrors: () => ({}),
    formError: (err) => passkeyErrorMessage(err, t`Could not remove the passkey.`),
  });

  return (
    <Form form={form} className="passkey-remove" aria-label={t`Remove passkey ${passkey.name}`}>
      <p>{t`Remove the passkey “${passkey.name}”? It will no longer sign you in.`}</p>
      <FormError form={form} />
      <StepUpField stepUp={stepUp} disabled={remove.isPending} />
      <div className="two-factor-actions">
        <StatusButton busy={remove.isPending} busyLabel={t`Removing…`} className="btn btn-primary btn-small">
          {t`Remove passkey`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onDone} disabled={remove.isPending}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

/** Settings: add (named), list (created, last used) and remove passkeys. */
export function PasskeysSection() {
  const id = useId();
  useLocale();
  const hereReason = passkeysUnavailableHere();
  const list = usePasskeys();
  const add = useAddPasskey();
  const [removing, setRemoving] = useState<string | null>(null);
  const [name, setName] = useState('');
  // A named passkey waits for the password (and the second factor when two-factor is on) before the device is asked.
  const [confirming, setConfirming] = useState(false);
  const reason = hereReason ?? (list.data && !list.data.available && list.data.reason ? passkeyReasonText(list.data.reason) : null);
  // The name field also says why the device refused (set by `confirm`, after the password step).
  const form = useForm<'passkeyName'>({
    validate: () => (name.trim() ? {} : { passkeyName: t`Name the passkey, e.g. "Work laptop"` }),
    action: () => setConfirming(true),
  });

  const confirm = async (proof: { currentPassword: string } & StepUpFieldsInput) => {
    try {
      await add.mutateAsync({ name: name.trim(), ...proof });
    } catch (err) {
      // The password step shows the server's answers; the device's own refusals are said here.
      if (err instanceof ApiError) throw err;
      setConfirming(false);
      form.setErrors({ passkeyName: passkeyErrorMessage(err, t`Could not add the passkey. Try again.`) });
      return;
    }
    setName('');
    setConfirming(false);
    toast.success(t`Passkey added`);
  };

  return (
    <section className="card settings-section passkeys-section" aria-labelledby={`${id}-title`} aria-busy={list.isPending || undefined}>
      <h2 id={`${id}-title`}>{t`Passkeys`}</h2>
      <p className="muted">
        {t`Sign in with your fingerprint, face or device PIN instead of a password. A passkey also works as the second step.`}
      </p>
      {reason && (
        <p className="passkeys-unavailable" role="note">
          {reason}
        </p>
      )}
      {list.isPending && <p className="muted">{t`Loading passkeys…`}</p>}
      {list.isError && (
        <div>
          <p className="field-error">{t`Could not load your passkeys.`}</p>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => void list.refetch()}>
            {t`Try again`}
          </button>
        </div>
      )}
      {list.data && list.data.passkeys.length === 0 && <p className="muted">{t`No passkeys yet.`}</p>}
      {list.data && list.data.passkeys.length > 0 && (
        <ul className="passkey-list" aria-label={t`Your passkeys`}>
          {list.data.passkeys.map((p) => (
            <li key={p._id} className="passkey-item">
              <div>
                <p className="passkey-name">{p.name}</p>
                <p className="muted">
                  {p.lastUsedAt
                    ? t`Added ${formatLocaleDateTime(p.createdAt)} · last used ${formatLocaleDateTime(p.lastUsedAt)}`
                    : t`Added ${formatLocaleDateTime(p.createdAt)} · never used`}
                </p>
              </div>
              {removing === p._id ? (
                <RemovePasskeyForm passkey={p} onDone={() => setRemoving(null)} />
              ) : (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => setRemoving(p._id)}
                  aria-label={t`Remove passkey ${p.name}`}
                >
                  {t`Remove`}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!reason && confirming && (
        <PasswordStep
          stepUp
          submitLabel={t`Continue to your device`}
          pendingLabel={t`Waiting for your device…`}
          pending={add.isPending}
          onSubmit={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t`Confirm it is you before adding “${name.trim()}”: a passkey signs in without your password.`}</p>
        </PasswordStep>
      )}
      {!reason && !confirming && (
        <Form form={form} className="passkey-add">
          <TextField
            id={`${id}-name`}
            label={t`Passkey name`}
            error={form.errors.passkeyName}
            errorAlert
            name="passkeyName"
            maxLength={60}
            placeholder={t`e.g. Work laptop`}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <StatusButton busy={add.isPending} className="btn btn-secondary btn-small">
            {t`Add a passkey`}
          </StatusButton>
        </Form>
      )}
    </section>
  );
}
