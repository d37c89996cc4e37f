import { i18n } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { QueryTable } from '#web/components/ui/query-table';
import { RichText, useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { formatLocaleCreditCents, pageLocale } from '#web/lib/format';
// The server's fixed error messages in the page's language (this panel has no form that loads them).
import '#web/lib/server-messages';
import { useFlaggedAccounts } from '../api/get-flagged-accounts';

const REASONS = { refunded: msg`refunded`, chargeback: msg`charged back` } as const;

/** "2 accounts owe 15.00 credits in all. …" in the language on screen. */
function owedInAll(count: number, total: string): string {
  // No placeholder inside a plural's branches: the pseudo-locale script keeps only one level of braces whole.
  const accounts = plural(count, { one: '# account owes', other: '# accounts owe' });
  return t`${accounts} ${total} credits in all. Their next credits pay this first.`;
}

/**
 * Staff console: accounts that owe credits because a payment they were credited for was reversed
 * after the credits were spent (docs/decisions/0120), most owed first, each with the payments behind it.
 */
export function FlaggedAccountsPanel() {
  useLocale();
  const flagged = useFlaggedAccounts();
  const { refetch, isFetching } = flagged;
  return (
    <section className="admin-panel flagged-accounts" aria-labelledby="flagged-title">
      <div className="admin-panel-header">
        <h2 id="flagged-title">{t`Accounts that owe credits`}</h2>
        <button type="button" className="btn btn-ghost" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? t`Refreshing…` : t`Refresh`}
        </button>
      </div>
      <QueryTable
        query={flagged}
        label={t`Accounts that owe credits`}
        rows={(data) => data.accounts}
        loading={t`Loading flagged accounts…`}
        failed={(err) => t`Failed to load the accounts that owe credits. ${errorMessage(err, '')}`}
        empty={t`No account owes credits.`}
        wrapClassName="table-scroll"
        summary={(data) => <p className="muted">{owedInAll(data.accounts.length, formatLocaleCreditCents(data.totalOutstandingCents))}</p>}
        columns={
          <>
            <th scope="col">{t`Account`}</th>
            <th scope="col">{t`Owes`}</th>
            <th scope="col">{t`Since`}</th>
            <th scope="col">{t`Reversed payments`}</th>
          </>
        }
        row={(a) => (
          <tr key={a.userId} data-testid={`flagged-${a.userId}`}>
            <td>
              <span className="flag-owes" aria-label={t`Flagged: owes credits`}>
                {t`Owes credits`}
              </span>{' '}
              {a.username ?? a.userId}
            </td>
            <td>{formatLocaleCreditCents(a.outstandingCents)}</td>
            <td>{new Date(a.since).toLocaleDateString(pageLocale())}</td>
            <td>
              <ul>
                {a.debts.map((d) => {
                  const payment = d.paymentId ? d.paymentId.slice(0, 8) : t`unknown`;
                  const reason = i18n._(REASONS[d.reason]);
                  const owed = formatLocaleCreditCents(d.outstandingCents);
                  const amount = formatLocaleCreditCents(d.amountCents);
                  return (
                    <li key={d._id}>
                      <RichText
                        message={t`Payment <0>${payment}</0> ${reason}: ${owed} of ${amount} still owed`}
                        elements={[<code key="id" title={d.paymentId ?? undefined} />]}
                      />
                    </li>
                  );
                })}
              </ul>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
