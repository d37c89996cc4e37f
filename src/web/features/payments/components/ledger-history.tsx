import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { useId, useState } from 'react';
import { formatLocaleCredits, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { Link } from 'react-router';
import { receiptPath } from '#shared/routes';
import { useLedgerHistory } from '../api/get-ledger-history';
import { describeLedgerEntry } from './ledger-describe';
import { KIND_LABELS } from './ledger-kinds';
import { LedgerExportForm } from './ledger-export-form';
import '../payments.css';

const PAGE_SIZE = 10;

/** Every change of my balance, newest first (GET /api/credits/history). */
export function LedgerHistory() {
  useLocale();
  const ids = useId();
  const [page, setPage] = useState(1);
  const history = useLedgerHistory(page, PAGE_SIZE);
  const total = history.data?.total ?? 0;
  const loading = history.isFetching;
  const error = history.isError ? t`Failed to fetch credit history` : null;

  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <section className="card payments-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Credit history`}</h2>
      <QueryState
        data={history.data}
        error={error}
        loading={t`Loading credit history…`}
        isEmpty={(data) => data.entries.length === 0}
        empty={t`No credit changes yet.`}
      >
        {({ entries }) => (
          <div className="rtable-wrap">
            <table className="payments-table rtable">
              <thead>
                <tr>
                  <th scope="col">{t`Date`}</th>
                  <th scope="col">{t`What`}</th>
                  <th scope="col" className="num">
                    {t`Change`}
                  </th>
                  <th scope="col" className="num">
                    {t`Balance`}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Receipt`}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => {
                  const description = describeLedgerEntry(e);
                  return (
                    <tr key={e._id}>
                      <td data-label={t`Date`}>{formatLocaleDateTime(e.createdAt)}</td>
                      <td data-label={t`What`}>
                        <span className="ledger-kind">{i18n._(KIND_LABELS[e.kind])}</span> <span className="muted">{description}</span>
                      </td>
                      <td data-label={t`Change`} className={`num ${e.amountCents < 0 ? 'amount-negative' : 'amount-positive'}`}>
                        {e.amountCents > 0 ? '+' : '−'}
                        {formatLocaleCredits(Math.abs(e.amountCents))}
                      </td>
                      <td data-label={t`Balance`} className="num">
                        {formatLocaleCredits(e.balanceAfterCents)}
                      </td>
                      <td data-label={t`Receipt`}>
                        <Link to={receiptPath(e._id)} className="receipt-link">
                          {t`Receipt`}
                          <span className="visually-hidden"> {t`for ${description}`}</span>
                        </Link>
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
        <Pagination className="pager" page={page} pages={pages} onPage={setPage} label={t`Credit history pages`} busy={loading} />
      )}
      <LedgerExportForm />
    </section>
  );
}
