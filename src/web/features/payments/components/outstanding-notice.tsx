import { t } from '@lingui/core/macro';
import { formatLocaleCredits, formatLocaleDate } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useOutstanding } from '../api/get-outstanding';
import { describeDebt } from './ledger-describe';
import '../payments.css';

/**
 * Tells the user, while their account owes credits, why: a payment they were credited for went back
 * to the sender after the credits were spent (docs/decisions/0120). Shows nothing otherwise, and
 * nothing while loading or when the question fails (the balance card reports fetch problems).
 */
export function OutstandingNotice() {
  useLocale();
  const { data } = useOutstanding();
  if (!data || data.outstandingCents <= 0) return null;
  const open = data.debts.filter((d) => d.outstandingCents > 0);
  return (
    <section className="notice outstanding-notice" role="alert" aria-labelledby="outstanding-title" data-testid="outstanding-notice">
      <h2 id="outstanding-title">{t`Your account owes ${formatLocaleCredits(data.outstandingCents)} credits`}</h2>
      <p>
        {t`A crypto payment you were credited for was sent back to the sender after its credits had been used. The credits still on your balance were taken back; the rest is owed. Your next top-ups pay this amount first, and the history below shows each part paid.`}
      </p>
      <ul className="outstanding-list">
        {open.map((d) => (
          <li key={d._id}>
            <strong>{t`${formatLocaleCredits(d.outstandingCents)} credits`}</strong>{' '}
            {t`still owed of ${formatLocaleCredits(d.amountCents)}`}
            {' - '}
            {describeDebt(d)}
            {d.paymentId && (
              <>
                {' '}
                ({t`payment`} <code title={d.paymentId}>{d.paymentId.slice(0, 8)}</code>, {formatLocaleDate(d.createdAt.slice(0, 10))})
              </>
            )}
          </li>
        ))}
      </ul>
      <p className="muted">{t`Questions? Open a support ticket and mention the payment.`}</p>
    </section>
  );
}
