import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { referralDecisionBodySchema, type AdminReferral } from '#shared/schemas/referrals';
import { Dialog } from '#web/components/ui/dialog';
import { TextareaField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDecideReferral, type ReferralDecision } from '../api/admin-referrals';
import { creditsLabel } from './labels';

/**
 * Refusing (nothing is paid) or reversing (what was paid is taken back) asks for the note the referrer
 * reads (3 to 500 characters) and is confirmed in a modal dialog; focus goes back to the button that
 * opened it.
 */
export function DecisionDialog({
  referral,
  decision,
  onClose,
  onDone,
}: {
  referral: AdminReferral;
  decision: ReferralDecision;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  useLocale();
  const id = useId();
  const decide = useDecideReferral();
  // A reversal takes credits back: the admin's second factor, when they have one.
  const stepUp = useStepUp();
  const [note, setNote] = useState('');
  const referrer = referral.referrer.username;
  const referred = referral.referred.username;
  const paid = creditsLabel(referral.paidCents + referral.heldCents);

  const form = useForm<'note'>({
    validate: () => {
      const parsed = referralDecisionBodySchema.safeParse({ note });
      return parsed.success ? {} : { note: parsed.error.issues[0]?.message ?? t`Say why` };
    },
    action: async () => {
      const extra = decision === 'reverse' ? stepUp.fields() : {};
      await decide.mutateAsync({ id: referral._id, decision, note: referralDecisionBodySchema.parse({ note }).note, ...extra });
      onDone(
        decision === 'refuse'
          ? t`Refused: ${referred}, invited by ${referrer}. ${referrer} reads your note.`
          : t`Reversed: ${referred}, invited by ${referrer}. What it earned is taken back; ${referrer} reads your note.`,
      );
    },
    onError: (err) => {
      if (decision === 'reverse' && stepUp.handleError(err)) return true;
      const api = err instanceof ApiError ? err : null;
      const fallback = decision === 'refuse' ? t`Could not refuse the referral` : t`Could not reverse the referral`;
      form.setErrors({ note: api?.fieldErrors.note ?? errorMessage(err, fallback) });
      return true;
    },
  });

  return (
    <Dialog className="referral-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-what`} onClose={onClose}>
      <h2 id={`${id}-title`}>{decision === 'refuse' ? t`Refuse this referral?` : t`Reverse this referral?`}</h2>
      <p id={`${id}-what`}>
        {decision === 'refuse'
          ? t`${referred} joined with the link of ${referrer}. Refused, it earns ${referrer} nothing.`
          : t`${referred} joined with the link of ${referrer}. Reversed, what it earned ${referrer} (${paid}) is taken back.`}
      </p>
      <Form form={form} aria-labelledby={`${id}-title`}>
        <TextareaField
          id={`${id}-note`}
          label={t`Note to ${referrer}`}
          note={t`3 to 500 characters. ${referrer} reads it beside the referral; it is kept in the audit log.`}
          rows={3}
          maxLength={500}
          name="note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          error={form.errors.note}
          errorAlert
        />
        {decision === 'reverse' && <StepUpField stepUp={stepUp} disabled={form.busy} />}
        <div className="actions">
          <StatusButton
            busy={form.busy}
            busyLabel={decision === 'refuse' ? t`Refusing…` : t`Reversing…`}
            className="btn btn-primary btn-small"
          >
            {decision === 'refuse' ? t`Refuse referral` : t`Reverse referral`}
          </StatusButton>
          <button type="button" className="btn btn-ghost btn-small" onClick={onClose} disabled={form.busy}>
            {t`Cancel`}
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
