import { plural, t } from '@lingui/core/macro';
import { useId } from 'react';
import type { ReferralSummary } from '#shared/schemas/referrals';
import { useLocale } from '#web/features/language';
import { formatLocaleDateTime } from '#web/lib/format';
import { creditsLabel } from './labels';

/** What my link has earned: held (not yet spendable), paid, taken back, and when the next held reward is released. */
export function ReferralFigures({ summary }: { summary: ReferralSummary }) {
  useLocale();
  const id = useId();
  const joined = summary.joined;
  const rewarded = summary.rewarded;
  return (
    <section className="card referral-figures" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`What you earned`}</h2>
      <p className="muted">
        {plural(joined, { one: '# person joined with your link', other: '# people joined with your link' })}
        {rewarded > 0 && ' · '}
        {rewarded > 0 && plural(rewarded, { one: '# earned you a reward', other: '# earned you rewards' })}
      </p>
      <dl className="referral-figures-list">
        <div>
          <dt>{t`Held`}</dt>
          <dd data-testid="referral-held">{creditsLabel(summary.heldCents)}</dd>
        </div>
        <div>
          <dt>{t`Paid to your balance`}</dt>
          <dd data-testid="referral-paid">{creditsLabel(summary.paidCents)}</dd>
        </div>
        <div>
          <dt>{t`Taken back`}</dt>
          <dd data-testid="referral-clawed-back">{creditsLabel(summary.clawedBackCents)}</dd>
        </div>
        <div>
          <dt>{t`Next release`}</dt>
          <dd data-testid="referral-next-release">
            {summary.nextReleaseAt ? formatLocaleDateTime(summary.nextReleaseAt) : t`Nothing held`}
          </dd>
        </div>
      </dl>
      <p className="muted">{t`Held rewards become spendable on their release date; a reward is taken back if its top-up is reversed.`}</p>
    </section>
  );
}
