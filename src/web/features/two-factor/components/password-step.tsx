import { t } from '@lingui/core/macro';
import { useId, useState, type ReactNode } from 'react';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { TextField } from '#web/components/ui/forms';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp, type StepUpFieldsInput } from './step-up-field';

/**
 * A small form that asks for the current password before a sensitive change, and with `stepUp` the
 * second factor too when two-factor is on (decision 0205).
 */
export function PasswordStep({
  submitLabel,
  pendingLabel,
  pending,
  stepUp: withStepUp,
  onSubmit,
  onCancel,
  children,
}: {
  submitLabel: string;
  pendingLabel: string;
  /** The caller's mutation is running (its isPending): `onSubmit` is that mutation. */
  pending: boolean;
  stepUp?: boolean;
  onSubmit: (input: { currentPassword: string } & StepUpFieldsInput) => Promise<unknown>;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  useLocale();
  const stepUp = useStepUp();
  const [currentPassword, setCurrentPassword] = useState('');
  // Focus goes to the empty password; the server's answer is said above it (and on it, for its field error).
  const form = useForm<'currentPassword'>({
    focus: 'precheck',
    validate: () => (currentPassword ? {} : { currentPassword: t`Current password is required` }),
    action: () => onSubmit({ currentPassword, ...(withStepUp ? stepUp.fields() : {}) }),
    onError: (err) => withStepUp && stepUp.handleError(err),
    formError: (err) => errorMessage(err, t`Something went wrong. Try again.`),
  });

  return (
    <Form form={form} className="two-factor-form">
      {children}
      <FormError form={form} />
      <TextField
        id={`${id}-currentPassword`}
        label={t`Current password`}
        error={form.errors.currentPassword}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
        required
      />
      {withStepUp && <StepUpField stepUp={stepUp} disabled={pending} />}
      <div className="two-factor-actions">
        <StatusButton busy={pending} busyLabel={pendingLabel} className="btn btn-primary btn-small">
          {submitLabel}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel} disabled={pending}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}
