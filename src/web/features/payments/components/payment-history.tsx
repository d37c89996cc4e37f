import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paymentPath } from '#shared/routes';
import { toCents } from '#shared/fees';
import { formatLocaleCredits, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useMyPayments } from '../api/get-my-payments';
import '../payments.css';
import { readPaymentExpiry } from '../payment-expiry';
import { STATUS_LABELS } from '../payment-status';
import { paymentProcessUrl } from './top-up-panel';

const PAGE_SIZE = 10;
const OPEN_STATUSES = new Set(['pending', 'waiting', 'confirming', 'confirmed', 'sending']);

/** My payments with their statuses, newest first, paged. */
export function PaymentHistory() {
  useLocale();
  const ids = useId();
  const [page, setPage] = useState(1);
  const mine = useMyPayments(page, PAGE_SIZE);
  const total = mine.data?.total ?? 0;
  const loading = mine.isFetching;
  // The call never fails: a failure comes back as an empty list with the catalogue's message (docs/product.md#errors).
  const error = mine.data?.error ?? null;

  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <section className="card payments-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Payment history`}</h2>
      <QueryState
        data={mine.data}
        error={error}
        loading={t`Loading payments…`}
        isEmpty={(data) => data.payments.length === 0}
        empty={t`No payments yet. Your top-ups will appear here.`}
      >
        {({ payments: rows }) => (
          <div className="rtable-wrap">
            <table className="payments-table rtable">
              <thead>
                <tr>
                  <th scope="col">{t`Date`}</th>
                  <th scope="col" className="num">
                    {t`Amount`}
                  </th>
                  <th scope="col">{t`Currency`}</th>
                  <th scope="col" className="num">
                    {t`Credits`}
                  </th>
                  <th scope="col">{t`Status`}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => {
                  const resumable = OPEN_STATUSES.has(p.status) && p.payAddress && (readPaymentExpiry(p._id) ?? 0) > Date.now();
                  return (
                    <tr key={p._id}>
                      <td data-label={t`Date`}>{formatLocaleDateTime(p.createdAt)}</td>
                      <td data-label={t`Amount`} className="num">
                        {formatLocaleCredits(toCents(p.priceAmount))} USD
                      </td>
                      <td data-label={t`Currency`}>{p.payCurrency.toUpperCase()}</td>
                      <td data-label={t`Credits`} className="num">
                        {formatLocaleCredits(toCents(p.creditedAmount > 0 ? p.creditedAmount : p.credits))}
                      </td>
                      <td data-label={t`Status`}>
                        <span className={`status-badge payment-status-${p.status}`}>{i18n._(STATUS_LABELS[p.status])}</span>{' '}
                        {resumable && <Link to={paymentProcessUrl({ ...p, id: p._id })}>{t`Continue`}</Link>}
                        {(p.status === 'completed' || p.status === 'partially_paid') && <Link to={paymentPath(p._id)}>{t`Details`}</Link>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {pages > 1 && (
        <Pagination className="pager" page={page} pages={pages} onPage={setPage} label={t`Payment history pages`} busy={loading} />
      )}
    </section>
  );
}
