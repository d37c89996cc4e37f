import { plural, t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { staffPaths } from '#shared/routes';
import type { RequesterMoneyRow } from '#shared/schemas/tickets';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { formatLocaleCredits, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useRequesterContext } from '../api/get-requester-context';

/**
 * Whole days since `iso`, in words ("today", "1 day", "40 days"). The count's message is the staff
 * overview's too ("{sum} in {daysText}"): German reads it in the dative, "Mitglied seit 40 Tagen".
 */
function age(iso: string): string {
  const days = Math.floor((Date.now() - new Date(iso).getTime()) / 86_400_000);
  return days <= 0 ? t`today` : plural(days, { one: '# day', other: '# days' });
}

/** Cents as credits in words, in the page's language: "12.50 credits". */
function credits(cents: number): string {
  const amount = formatLocaleCredits(cents);
  return t`${amount} credits`;
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
              <span>{r.label}</span> <span className="num">{credits(r.amountCents)}</span>{' '}
              <span className="requester-status">{r.status.replace(/_/g, ' ')}</span>{' '}
              <span className="muted">{formatLocaleDateTime(r.createdAt)}</span>
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
  useLocale();
  const context = useRequesterContext(ticketId);
  return (
    <aside className="card requester-context" aria-labelledby="requester-context-title">
      <h3 id="requester-context-title">{t`Requester`}</h3>
      <QueryState
        data={context.data?.requester}
        loading={<p className="muted">{t`Loading the requester…`}</p>}
        error={context.error ? errorMessage(context.error, t`Could not load the requester`) : null}
        onRetry={() => void context.refetch()}
      >
        {(r) => (
          <div className="stack requester-stack">
            {r.account ? (
              <dl className="requester-facts">
                <dt>{t`Account`}</dt>
                <dd>
                  <Link to={staffPaths.user(r.account.id)}>{r.account.username}</Link> <span className="muted">({r.account.email})</span>
                </dd>
                <dt>{t`Member for`}</dt>
                <dd>{age(r.account.createdAt)}</dd>
                <dt>{t`Email`}</dt>
                <dd>{r.account.emailVerified ? t`Verified` : t`Not verified`}</dd>
                <dt>{t`Two-factor`}</dt>
                <dd>
                  {r.account.twoFactor.totp || r.account.twoFactor.passkeys > 0
                    ? [
                        r.account.twoFactor.totp && t`authenticator app`,
                        r.account.twoFactor.passkeys > 0 && plural(r.account.twoFactor.passkeys, { one: '# passkey', other: '# passkeys' }),
                      ]
                        .filter(Boolean)
                        .join(', ')
                    : t`Off`}
                </dd>
                <dt>{t`Balance`}</dt>
                <dd className="num">{credits(r.account.balanceCents)}</dd>
                {r.account.disabled && (
                  <>
                    <dt>{t`State`}</dt>
                    <dd>{t`Disabled`}</dd>
                  </>
                )}
              </dl>
            ) : (
              <p>{t`A guest (no account).`}</p>
            )}
            {r.account && <MoneyList title={t`Payments`} rows={r.payments} empty={t`No payments.`} link={staffPaths.section('payments')} />}
            <MoneyList title={t`Exchanges`} rows={r.exchanges} empty={t`No exchanges.`} link={staffPaths.section('exchanges')} />
            {r.account && <MoneyList title={t`Orders`} rows={r.orders} empty={t`No orders.`} link={staffPaths.section('catalogue')} />}
            <section aria-label={t`Other open tickets`}>
              <h4>{t`Other open tickets`}</h4>
              {r.openTickets.length === 0 ? (
                <p className="muted">{t`None.`}</p>
              ) : (
                <ul className="requester-rows">
                  {r.openTickets.map((open) => (
                    <li key={open.id}>
                      #{open.number} {open.subject} <span className="requester-status">{open.status}</span>
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
