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
import { formatCreditAmount, formatCredits } from '#web/lib/format';

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
  return owner.username ?? (owner.guestId ? 'Guest' : '—');
}

function summary(kind: Kind, row: Row): string {
  if (kind === 'payments') {
    const p = row as Payment;
    return `${formatCreditAmount(p.priceAmount)} USD in ${p.payCurrency.toUpperCase()}`;
  }
  const e = row as Exchange;
  return `${e.amount} ${e.from.toUpperCase()} → ${e.to.toUpperCase()}`;
}

/** What staff need to answer a swap question: the rate it was made at and where a refund goes. */
function ExchangeFacts({ exchange: e }: { exchange: Exchange }) {
  return (
    <>
      <dt>Rate</dt>
      <dd>
        {e.rateType === 'fixed'
          ? `Fixed${e.rateValidUntil ? `, quote valid until ${new Date(e.rateValidUntil).toLocaleString()}` : ''}`
          : 'Floating'}
      </dd>
      <dt>Payout address</dt>
      <dd className="mono">
        {e.payoutAddress}
        {e.payoutExtraId ? ` (memo ${e.payoutExtraId})` : ''}
      </dd>
      <dt>Refund address</dt>
      <dd className="mono">
        {e.refundAddress ? `${e.refundAddress}${e.refundExtraId ? ` (memo ${e.refundExtraId})` : ''}` : 'None given'}
      </dd>
    </>
  );
}

/** Payments or exchanges for staff: filters, the provider's data, history, and "re-check with provider". */
export function MoneyPanel({ kind }: { kind: Kind }) {
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
      toast.error(errorMessage(err, 'Failed to open'));
    }
  }

  async function recheck() {
    if (!detail) return;
    try {
      await recheckItem.mutateAsync(detail.row._id);
      toast.success('Checked with the provider');
    } catch (err) {
      toast.error(errorMessage(err, 'The provider could not be reached'));
    }
  }

  const title = kind === 'payments' ? 'Payments' : 'Exchanges';
  if (detail) {
    return (
      <section className="admin-panel" aria-labelledby="money-detail-title">
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpenId(null)}>
          ← {title}
        </button>
        <h2 id="money-detail-title">
          {summary(kind, detail.row)} · {detail.row.status}
        </h2>
        <dl className="admin-facts">
          <dt>Owner</dt>
          <dd>{ownerLabel(detail.row.owner)}</dd>
          <dt>Created</dt>
          <dd>{new Date(detail.row.createdAt).toLocaleString()}</dd>
          <dt>Our id</dt>
          <dd className="mono">{detail.row._id}</dd>
          {kind === 'exchanges' && <ExchangeFacts exchange={detail.row as Exchange} />}
        </dl>
        <button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={() => void recheck()}>
          {busy ? 'Checking…' : 'Re-check with provider'}
        </button>
        {kind === 'payments' && (
          <>
            <h3>IPN and check history</h3>
            {detail.events.length === 0 ? (
              <p className="empty-state">The provider has not reported on this payment yet.</p>
            ) : (
              <div className="table-wrap rtable-wrap">
                <table className="admin-table rtable" aria-label="Provider history">
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Source</th>
                      <th scope="col">Provider said</th>
                      <th scope="col">Our status</th>
                      <th scope="col" className="num">
                        Credited
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.events.map((e) => (
                      <tr key={e._id}>
                        <td data-label="When">{new Date(e.createdAt).toLocaleString()}</td>
                        <td data-label="Source">{e.source}</td>
                        <td data-label="Provider said">{e.providerStatus}</td>
                        <td data-label="Our status">
                          {e.statusBefore} → {e.statusAfter}
                        </td>
                        <td data-label="Credited" className="num">
                          {formatCredits(e.creditedCents)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
        <h3>Provider data</h3>
        <pre className="mono admin-json">{detail.row.providerData ? JSON.stringify(detail.row.providerData, null, 2) : 'None yet'}</pre>
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
      <Form form={filterForm} noValidate={false} className="queue-filters" aria-label={`Filter ${kind}`}>
        <label className="inline-field">
          <span>Status</span>
          <select value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES[kind].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Currency</span>
          <input value={filters.currency} onChange={set('currency')} placeholder="btc" size={8} />
        </label>
        <label className="inline-field">
          <span>User</span>
          <input value={filters.user} onChange={set('user')} placeholder="Username or id" size={14} />
        </label>
        <label className="inline-field">
          <span>From</span>
          <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label className="inline-field">
          <span>To</span>
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
        loading="Loading…"
        failed={`Failed to load ${kind}`}
        empty="Nothing matches these filters."
        columns={
          <>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Owner</th>
            <th scope="col">Status</th>
          </>
        }
        row={(row) => (
          <tr key={row._id}>
            <td data-label="When">{new Date(row.createdAt).toLocaleString()}</td>
            <td data-label="What">
              <button type="button" className="link-button" onClick={() => void open(row._id)}>
                {summary(kind, row)}
              </button>
            </td>
            <td data-label="Owner">{ownerLabel(row.owner)}</td>
            <td data-label="Status">{row.status}</td>
          </tr>
        )}
      />
      <Pagination page={page} pages={pages} onPage={setPage} label={`${title} pages`} />
    </section>
  );
}
