import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { rewardClaimInputSchema } from '#shared/schemas/exchange';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError } from '#web/lib/api-client';
import { useLocale } from '#web/features/language';
import { formatLocaleCredits } from '#web/lib/format';
import { useClaimReward } from '../api/claim-guest-rewards';
import './claim-reward-form.css';

type Field = 'exchangeId' | 'claimCode';

const LABELS: Record<Field, MessageDescriptor> = { exchangeId: msg`Exchange id`, claimCode: msg`Claim code` };
const MAX_LENGTH: Record<Field, number> = {
  exchangeId: rewardClaimInputSchema.shape.exchangeId.maxLength ?? 100,
  claimCode: rewardClaimInputSchema.shape.claimCode.maxLength ?? 200,
};

/** What the server answered for the one claim, in the reader's words. */
function outcomeText(claimed: boolean, credited: number): string {
  if (!claimed) {
    return t`No reward is waiting for this exchange id and claim code. Check both; a reward can be claimed once, before its deadline.`;
  }
  if (credited > 0) {
    const amount = formatLocaleCredits(Math.round(credited * 100));
    return t`Claimed: ${amount} credits were added to your balance.`;
  }
  return t`Claimed: the exchange is still running, and its reward will be credited to your account when it finishes.`;
}

/**
 * Claim a guest's reward by hand (docs/decisions/0310-claim-a-reward-on-any-device.md): the exchange id
 * and the claim code the tracker showed, typed on any device where the person is signed in. Claims kept
 * in a browser are still redeemed by themselves at sign-in there; this is for the code that was copied
 * elsewhere.
 */
export function ClaimRewardForm({ userId }: { userId: string }) {
  useLocale();
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ exchangeId: '', claimCode: '' });
  const claim = useClaimReward(userId);
  const typed = () => ({ exchangeId: values.exchangeId.trim(), claimCode: values.claimCode.trim() });
  const form = useForm<Field>({
    validate: () => {
      const next: Partial<Record<Field, string>> = {};
      for (const field of ['exchangeId', 'claimCode'] as const) {
        const value = typed()[field];
        if (!value) next[field] = field === 'exchangeId' ? t`Enter the exchange id` : t`Enter the claim code`;
        else if (value.length > MAX_LENGTH[field])
          next[field] = field === 'exchangeId' ? t`That is longer than any exchange id` : t`That is longer than any claim code`;
      }
      return next;
    },
    action: async () => {
      const answer = await claim.mutateAsync(typed());
      if (answer.data.results.some((r) => r.claimed)) setValues({ exchangeId: '', claimCode: '' });
    },
    // The form words a failure from the request's state below.
    mapFieldErrors: () => ({}),
    formError: () => null,
  });

  const answer = claim.isSuccess ? claim.data.data : null;
  const claimed = answer?.results.some((r) => r.claimed) ?? false;
  const apiError = claim.error instanceof ApiError ? claim.error : null;
  const failure = claim.isError
    ? apiError?.fromServer
      ? apiError.message
      : t`Could not claim the reward. Check your connection and try again.`
    : null;

  return (
    <section className="card claim-reward" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Claim a reward`}</h2>
      <p className="muted">{t`Swapped as a guest on another device? Enter the exchange id and the claim code the exchange showed you.`}</p>
      <Form form={form} aria-labelledby={`${id}-title`} className="claim-reward-form">
        {(['exchangeId', 'claimCode'] as const).map((field) => (
          <TextField
            key={field}
            id={`${id}-${field}`}
            label={i18n._(LABELS[field])}
            name={field}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            value={values[field]}
            onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
            error={form.errors[field]}
          />
        ))}
        <StatusButton busy={form.busy} busyLabel={t`Claiming…`} className="btn btn-primary">
          {t`Claim reward`}
        </StatusButton>
      </Form>
      <p
        role="status"
        aria-live="polite"
        className={claimed ? 'claim-reward-outcome claim-reward-success' : 'claim-reward-outcome'}
        data-testid="claim-reward-outcome"
      >
        {answer ? outcomeText(claimed, answer.totalCredited) : null}
      </p>
      <div className="form-error" role="alert">
        {failure}
      </div>
    </section>
  );
}
