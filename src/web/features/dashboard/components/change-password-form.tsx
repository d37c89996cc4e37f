import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { useLocale } from '#web/features/language';
import { passwordSchema } from '#shared/schemas/auth';
import { TextField } from '#web/components/ui/forms';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useChangePassword } from '../api/change-password';

type Field = 'currentPassword' | 'newPassword';

/** Needs the current password; on success the server ends every other session (docs/product.md#accounts). */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  useLocale();
  const changePassword = useChangePassword();
  const stepUp = useStepUp();
  const id = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [success, setSuccess] = useState<string | null>(null);

  const form = useForm<Field>({
    beforeSubmit: () => setSuccess(null),
    validate: () => {
      const errors: Partial<Record<Field, string>> = {};
      if (!currentPassword) errors.currentPassword = t`Current password is required`;
      const parsed = passwordSchema.safeParse(newPassword);
      if (!parsed.success) errors.newPassword = parsed.error.issues[0]?.message;
      return errors;
    },
    action: () => changePassword.mutateAsync({ currentPassword, newPassword, ...stepUp.fields() }),
    onSuccess: () => {
      setCurrentPassword('');
      setNewPassword('');
      stepUp.reset();
      setSuccess(t`Password updated. Your other sessions have been signed out.`);
      onChanged?.();
    },
    onError: (err) => stepUp.handleError(err),
    formError: (err) => (err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Failed to update password`),
    focus: 'precheck',
  });
  const pending = form.busy;

  const field = (name: Field, label: string, value: string, set: (v: string) => void, autoComplete: string, note?: string) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      error={form.errors[name]}
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
      <h2 id={`${id}-title`}>{t`Change password`}</h2>
      <FormError form={form} />
      <p role="status" aria-live="polite" className="settings-notice">
        {success}
      </p>
      <Form form={form} aria-labelledby={`${id}-title`}>
        {field('currentPassword', t`Current password`, currentPassword, setCurrentPassword, 'current-password')}
        {field(
          'newPassword',
          t`New password`,
          newPassword,
          setNewPassword,
          'new-password',
          t`At least 8 characters. Changing it signs out your other devices.`,
        )}
        <StepUpField stepUp={stepUp} disabled={pending} />
        <StatusButton busy={pending} busyLabel={t`Updating…`} className="btn btn-primary">
          {t`Update password`}
        </StatusButton>
      </Form>
    </section>
  );
}
