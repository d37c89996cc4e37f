import { formatCredits } from '#shared/fees';
import { QueryTable } from '#web/components/ui/query-table';
import { useFlaggedAccounts } from '../api/get-flagged-accounts';

const REASONS = { refunded: 'refunded', chargeback: 'charged back' } as const;

/**
 * Staff console: accounts that owe credits because a payment they were credited for was reversed
 * after the credits were spent (docs/decisions/0120), most owed first, each with the payments behind it.
 */
export function FlaggedAccountsPanel() {
  const flagged = useFlaggedAccounts();
  const { refetch, isFetching } = flagged;
  return (
    <section className="admin-panel flagged-accounts" aria-labelledby="flagged-title">
      <div className="admin-panel-header">
        <h2 id="flagged-title">Accounts that owe credits</h2>
        <button type="button" className="btn btn-ghost" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <QueryTable
        query={flagged}
        label="Accounts that owe credits"
        rows={(data) => data.accounts}
        loading="Loading flagged accounts…"
        failed={(err) => `Failed to load the accounts that owe credits. ${err instanceof Error ? err.message : ''}`}
        empty="No account owes credits."
        wrapClassName="table-scroll"
        summary={(data) => (
          <p className="muted">
            {data.accounts.length} {data.accounts.length === 1 ? 'account owes' : 'accounts owe'}{' '}
            {formatCredits(data.totalOutstandingCents)} credits in all. Their next credits pay this first.
          </p>
        )}
        columns={
          <>
            <th scope="col">Account</th>
            <th scope="col">Owes</th>
            <th scope="col">Since</th>
            <th scope="col">Reversed payments</th>
          </>
        }
        row={(a) => (
          <tr key={a.userId} data-testid={`flagged-${a.userId}`}>
            <td>
              <span className="flag-owes" aria-label="Flagged: owes credits">
                Owes credits
              </span>{' '}
              {a.username ?? a.userId}
            </td>
            <td>{formatCredits(a.outstandingCents)}</td>
            <td>{new Date(a.since).toLocaleDateString()}</td>
            <td>
              <ul>
                {a.debts.map((d) => (
                  <li key={d._id}>
                    Payment <code title={d.paymentId ?? undefined}>{d.paymentId ? d.paymentId.slice(0, 8) : 'unknown'}</code>{' '}
                    {REASONS[d.reason]}: {formatCredits(d.outstandingCents)} of {formatCredits(d.amountCents)} still owed
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
