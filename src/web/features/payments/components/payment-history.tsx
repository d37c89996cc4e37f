import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paymentPath } from '#shared/routes';
import { formatAmount } from '#web/lib/format';
import { useMyPayments } from '../api/get-my-payments';
import '../payments.css';
import { readPaymentExpiry } from '../payment-expiry';
import { STATUS_LABELS } from '../payment-status';
import { paymentProcessUrl } from './top-up-panel';

const PAGE_SIZE = 10;
const OPEN_STATUSES = new Set(['pending', 'waiting', 'confirming', 'confirmed', 'sending']);

/** My payments with their statuses, newest first, paged. */
export function PaymentHistory() {
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
      <h2 id={`${ids}-title`}>Payment history</h2>
      <QueryState
        data={mine.data}
        error={error}
        loading="Loading payments…"
        isEmpty={(data) => data.payments.length === 0}
        empty="No payments yet. Your top-ups will appear here."
      >
        {({ payments: rows }) => (
          <div className="rtable-wrap">
            <table className="payments-table rtable">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col">Currency</th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => {
                  const resumable = OPEN_STATUSES.has(p.status) && p.payAddress && (readPaymentExpiry(p._id) ?? 0) > Date.now();
                  return (
                    <tr key={p._id}>
                      <td data-label="Date">{new Date(p.createdAt).toLocaleString()}</td>
                      <td data-label="Amount" className="num">
                        {formatAmount(p.priceAmount)} USD
                      </td>
                      <td data-label="Currency">{p.payCurrency.toUpperCase()}</td>
                      <td data-label="Credits" className="num">
                        {formatAmount(p.creditedAmount > 0 ? p.creditedAmount : p.credits)}
                      </td>
                      <td data-label="Status">
                        <span className={`status-badge payment-status-${p.status}`}>{STATUS_LABELS[p.status]}</span>{' '}
                        {resumable && <Link to={paymentProcessUrl({ ...p, id: p._id })}>Continue</Link>}
                        {(p.status === 'completed' || p.status === 'partially_paid') && <Link to={paymentPath(p._id)}>Details</Link>}
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
        <Pagination className="pager" page={page} pages={pages} onPage={setPage} label="Payment history pages" busy={loading} />
      )}
    </section>
  );
}
