import { Link } from 'react-router';
import { staffPaths } from '#shared/routes';
import type { RequesterMoneyRow } from '#shared/schemas/tickets';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { creditsText, formatWhen } from '#web/lib/format';
import { useRequesterContext } from '../api/get-requester-context';

/** Whole days since `iso`, in words ("today", "1 day", "40 days"). */
function age(iso: string): string {
  const days = Math.floor((Date.now() - new Date(iso).getTime()) / 86_400_000);
  return days <= 0 ? 'today' : days === 1 ? '1 day' : `${days} days`;
}

function MoneyList({ title, rows, empty, link }: { title: string; rows: RequesterMoneyRow[]; empty: string; link: string }) {
  return (
    <section aria-label={title}>
      <h4>
        <Link to={link}>{title}</Link>
      </h4>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="requester-rows">
          {rows.map((r) => (
            <li key={r.id}>
              <span>{r.label}</span> <span className="num">{creditsText(r.amountCents)}</span>{' '}
              <span className="requester-status">{r.status.replace(/_/g, ' ')}</span>{' '}
              <span className="muted">{formatWhen(r.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Beside a ticket in the desk (docs/decisions/0291): who asks, their account's state and their money,
 * so staff answer "where is my top-up?" without leaving the ticket. Read-only for every staff role.
 */
export function RequesterContextPanel({ ticketId }: { ticketId: string }) {
  const context = useRequesterContext(ticketId);
  return (
    <aside className="card requester-context" aria-labelledby="requester-context-title">
      <h3 id="requester-context-title">Requester</h3>
      <QueryState
        data={context.data?.requester}
        loading={<p className="muted">Loading the requester…</p>}
        error={context.error ? errorMessage(context.error, 'Could not load the requester') : null}
        onRetry={() => void context.refetch()}
      >
        {(r) => (
          <div className="stack requester-stack">
            {r.account ? (
              <dl className="requester-facts">
                <dt>Account</dt>
                <dd>
                  <Link to={staffPaths.user(r.account.id)}>{r.account.username}</Link> <span className="muted">({r.account.email})</span>
                </dd>
                <dt>Member for</dt>
                <dd>{age(r.account.createdAt)}</dd>
                <dt>Email</dt>
                <dd>{r.account.emailVerified ? 'Verified' : 'Not verified'}</dd>
                <dt>Two-factor</dt>
                <dd>
                  {r.account.twoFactor.totp || r.account.twoFactor.passkeys > 0
                    ? [
                        r.account.twoFactor.totp && 'authenticator app',
                        r.account.twoFactor.passkeys > 0 &&
                          `${r.account.twoFactor.passkeys} passkey${r.account.twoFactor.passkeys === 1 ? '' : 's'}`,
                      ]
                        .filter(Boolean)
                        .join(', ')
                    : 'Off'}
                </dd>
                <dt>Balance</dt>
                <dd className="num">{creditsText(r.account.balanceCents)}</dd>
                {r.account.disabled && (
                  <>
                    <dt>State</dt>
                    <dd>Disabled</dd>
                  </>
                )}
              </dl>
            ) : (
              <p>A guest (no account).</p>
            )}
            {r.account && <MoneyList title="Payments" rows={r.payments} empty="No payments." link={staffPaths.section('payments')} />}
            <MoneyList title="Exchanges" rows={r.exchanges} empty="No exchanges." link={staffPaths.section('exchanges')} />
            {r.account && <MoneyList title="Orders" rows={r.orders} empty="No orders." link={staffPaths.section('catalogue')} />}
            <section aria-label="Other open tickets">
              <h4>Other open tickets</h4>
              {r.openTickets.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <ul className="requester-rows">
                  {r.openTickets.map((t) => (
                    <li key={t.id}>
                      #{t.number} {t.subject} <span className="requester-status">{t.status}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        )}
      </QueryState>
    </aside>
  );
}
