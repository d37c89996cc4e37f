import { t } from '@lingui/core/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import type { Exchange } from '#shared/schemas/exchange';
import type { Payment } from '#shared/schemas/payments';
import { Pagination } from '#web/components/ui/pagination';
import { QueryTable } from '#web/components/ui/query-table';
import { Form, useForm } from '#web/components/ui/use-form';
import { errorMessage } from '#web/lib/api-client';
import { moneyItemQueryOptions } from '../api/get-money-item';
import { MONEY_PAGE_SIZE, useMoneyList, type MoneyKind, type MoneyOwner, type MoneyRow } from '../api/get-money-list';
import { useRecheckMoneyItem } from '../api/recheck-money-item';
import { formatLocaleCreditAmount, formatLocaleCreditCents, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { codeLabel, MONEY_STATUS_LABELS } from './labels';

/** A currency filter's example: a ticker, the same in every language. */
const CURRENCY_EXAMPLE = 'btc';

type Kind = MoneyKind;
type Row = MoneyRow;
type Owner = MoneyOwner;

const STATUSES: Record<Kind, string[]> = {
  payments: [
    'pending',
    'waiting',
    'confirming',
    'confirmed',
    'sending',
    'partially_paid',
    'finished',
    'completed',
    'failed',
    'refunded',
    'expired',
  ],
  exchanges: ['waiting', 'confirming', 'exchanging', 'sending', 'finished', 'failed', 'refunded', 'expired'],
};

function ownerLabel(owner: Owner): string {
  return owner.username ?? (owner.guestId ? t`Guest` : '—');
}

function summary(kind: Kind, row: Row): string {
  if (kind === 'payments') {
    const p = row as Payment;
    const price = formatLocaleCreditAmount(p.priceAmount);
    const currency = p.payCurrency.toUpperCase();
    return t`${price} USD in ${currency}`;
  }
  const e = row as Exchange;
  return `${e.amount} ${e.from.toUpperCase()} → ${e.to.toUpperCase()}`;
}

/** What staff need to answer a swap question: the rate it was made at and where a refund goes. */
function ExchangeFacts({ exchange: e }: { exchange: Exchange }) {
  useLocale();
  const validUntil = e.rateValidUntil ? formatLocaleDateTime(e.rateValidUntil) : null;
  const payoutMemo = e.payoutExtraId;
  const refundMemo = e.refundExtraId;
  return (
    <>
      <dt>{t`Rate`}</dt>
      <dd>{e.rateType === 'fixed' ? (validUntil ? t`Fixed, quote valid until ${validUntil}` : t`Fixed`) : t`Floating`}</dd>
      <dt>{t`Payout address`}</dt>
      <dd className="mono">
        {e.payoutAddress}
        {payoutMemo ? ` ${t`(memo ${payoutMemo})`}` : ''}
      </dd>
      <dt>{t`Refund address`}</dt>
      <dd className="mono">{e.refundAddress ? `${e.refundAddress}${refundMemo ? ` ${t`(memo ${refundMemo})`}` : ''}` : t`None given`}</dd>
    </>
  );
}

/** Payments or exchanges for staff: filters, the provider's data, history, and "re-check with provider". */
export function MoneyPanel({ kind }: { kind: Kind }) {
  useLocale();
  const [filters, setFilters] = useState({ status: '', currency: '', user: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  // Typed filters ask once per key; the query key holds them all, so only the newest answer is shown.
  const listQuery = useMoneyList(kind, filters, page);
  // The last answer stays on screen while another loads, or when it fails.
  const [shown, setShown] = useState(listQuery.data);
  if (listQuery.data && listQuery.data !== shown) setShown(listQuery.data);
  const list = listQuery.data ?? shown ?? null;

  const client = useQueryClient();
  const [openId, setOpenId] = useState<string | null>(null);
  // Shown only once it is there: opening fetches first and stays on the list if that fails.
  const detail = useQuery({ ...moneyItemQueryOptions(kind, openId ?? ''), enabled: false }).data ?? null;
  const recheckItem = useRecheckMoneyItem(kind);
  const busy = recheckItem.isPending;
  // The filters apply as they are typed: submitting (Enter) has nothing more to do.
  const filterForm = useForm({ action: () => undefined });

  async function open(id: string) {
    try {
      await client.fetchQuery(moneyItemQueryOptions(kind, id));
      setOpenId(id);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to open`));
    }
  }

  async function recheck() {
    if (!detail) return;
    try {
      await recheckItem.mutateAsync(detail.row._id);
      toast.success(t`Checked with the provider`);
    } catch (err) {
      toast.error(errorMessage(err, t`The provider could not be reached`));
    }
  }

  const title = kind === 'payments' ? t`Payments` : t`Exchanges`;
  if (detail) {
    return (
      <section className="admin-panel" aria-labelledby="money-detail-title">
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpenId(null)}>
          ← {title}
        </button>
        <h2 id="money-detail-title">
          {summary(kind, detail.row)} · {codeLabel(MONEY_STATUS_LABELS, detail.row.status)}
        </h2>
        <dl className="admin-facts">
          <dt>{t`Owner`}</dt>
          <dd>{ownerLabel(detail.row.owner)}</dd>
          <dt>{t`Created`}</dt>
          <dd>{formatLocaleDateTime(detail.row.createdAt)}</dd>
          <dt>{t`Our id`}</dt>
          <dd className="mono">{detail.row._id}</dd>
          {kind === 'exchanges' && <ExchangeFacts exchange={detail.row as Exchange} />}
        </dl>
        <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => void recheck()}>
          {busy ? t`Checking…` : t`Re-check with provider`}
        </button>
        {kind === 'payments' && (
          <>
            <h3>{t`IPN and check history`}</h3>
            {detail.events.length === 0 ? (
              <p className="empty-state">{t`The provider has not reported on this payment yet.`}</p>
            ) : (
              <div className="table-wrap rtable-wrap">
                <table className="admin-table rtable" aria-label={t`Provider history`}>
                  <thead>
                    <tr>
                      <th scope="col">{t`When`}</th>
                      <th scope="col">{t`Source`}</th>
                      <th scope="col">{t`Provider said`}</th>
                      <th scope="col">{t`Our status`}</th>
                      <th scope="col" className="num">
                        {t`Credited`}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.events.map((e) => (
                      <tr key={e._id}>
                        <td data-label={t`When`}>{formatLocaleDateTime(e.createdAt)}</td>
                        <td data-label={t`Source`}>{e.source}</td>
                        <td data-label={t`Provider said`}>{e.providerStatus}</td>
                        <td data-label={t`Our status`}>
                          {codeLabel(MONEY_STATUS_LABELS, e.statusBefore)} → {codeLabel(MONEY_STATUS_LABELS, e.statusAfter)}
                        </td>
                        <td data-label={t`Credited`} className="num">
                          {formatLocaleCreditCents(e.creditedCents)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
        <h3>{t`Provider data`}</h3>
        <pre className="mono admin-json">{detail.row.providerData ? JSON.stringify(detail.row.providerData, null, 2) : t`None yet`}</pre>
      </section>
    );
  }

  const set = (key: keyof typeof filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    setPage(1);
  };
  const pages = list ? Math.max(1, Math.ceil(list.total / MONEY_PAGE_SIZE)) : 1;
  return (
    <section className="admin-panel" aria-labelledby={`${kind}-title`}>
      <h2 id={`${kind}-title`}>{title}</h2>
      <Form
        form={filterForm}
        noValidate={false}
        className="queue-filters"
        aria-label={kind === 'payments' ? t`Filter payments` : t`Filter exchanges`}
      >
        <label className="inline-field">
          <span>{t`Status`}</span>
          <select value={filters.status} onChange={set('status')}>
            <option value="">{t`Any`}</option>
            {STATUSES[kind].map((s) => (
              <option key={s} value={s}>
                {codeLabel(MONEY_STATUS_LABELS, s)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t`Currency`}</span>
          <input value={filters.currency} onChange={set('currency')} placeholder={CURRENCY_EXAMPLE} size={8} />
        </label>
        <label className="inline-field">
          <span>{t`User`}</span>
          <input value={filters.user} onChange={set('user')} placeholder={t`Username or id`} size={14} />
        </label>
        <label className="inline-field">
          <span>{t`From`}</span>
          <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label className="inline-field">
          <span>{t`To`}</span>
          <input type="date" value={filters.to} onChange={set('to')} />
        </label>
      </Form>
      <QueryTable
        // The last answer stays under a failed or running load.
        query={{ data: list ?? undefined, error: listQuery.error, refetch: listQuery.refetch }}
        label={title}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        rows={(data) => data.rows}
        loading={t`Loading…`}
        failed={kind === 'payments' ? t`Failed to load payments` : t`Failed to load exchanges`}
        empty={t`Nothing matches these filters.`}
        columns={
          <>
            <th scope="col">{t`When`}</th>
            <th scope="col">{t`What`}</th>
            <th scope="col">{t`Owner`}</th>
            <th scope="col">{t`Status`}</th>
          </>
        }
        row={(row) => (
          <tr key={row._id}>
            <td data-label={t`When`}>{formatLocaleDateTime(row.createdAt)}</td>
            <td data-label={t`What`}>
              <button type="button" className="link-button" onClick={() => void open(row._id)}>
                {summary(kind, row)}
              </button>
            </td>
            <td data-label={t`Owner`}>{ownerLabel(row.owner)}</td>
            <td data-label={t`Status`}>{codeLabel(MONEY_STATUS_LABELS, row.status)}</td>
          </tr>
        )}
      />
      <Pagination page={page} pages={pages} onPage={setPage} label={kind === 'payments' ? t`Payments pages` : t`Exchanges pages`} />
    </section>
  );
}
