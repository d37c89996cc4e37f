import { useCallback, useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ROLES, type Role } from '../../../../shared/constants';
import type { AdminUser } from '../../../../shared/schemas/admin';
import type { LedgerEntry } from '../../../../shared/schemas/credits';
import { formatCredits } from '../../../../shared/fees';
import type { Exchange } from '../../../../shared/schemas/exchange';
import type { Payment } from '../../../../shared/schemas/payments';
import type { Ticket } from '../../../../shared/schemas/tickets';
import { Pagination } from '../../../components/ui/pagination';
import { api, ApiError } from '../../../lib/api-client';
import { AdminTwoFactorReset } from '../../two-factor/components/admin-two-factor-reset';
import { toQueryString } from '../../../lib/query-string';
import { adminApi, type AdminUserDetail } from '../api/admin-api';

function newIdempotencyKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** Search users; open one to see balance, ledger and sessions, and (admins) act on the account. */
export function UsersPanel({ isAdmin }: { isAdmin: boolean }) {
  const [search, setSearch] = useState('');
  const [results, setResults] = useState<AdminUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const runSearch = useCallback(async (text: string) => {
    try {
      setResults((await adminApi.searchUsers({ search: text, pageSize: 25 })).users);
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to search users');
    }
  }, []);

  useEffect(() => {
    void runSearch('');
  }, [runSearch]);

  if (selectedId) {
    return <UserDetail id={selectedId} isAdmin={isAdmin} onBack={() => setSelectedId(null)} />;
  }

  return (
    <section aria-labelledby="users-title" className="admin-panel">
      <h2 id="users-title">Users</h2>
      <form
        role="search"
        className="admin-search"
        onSubmit={(e) => {
          e.preventDefault();
          void runSearch(search);
        }}
      >
        <label htmlFor="admin-user-search" className="visually-hidden">
          Search users
        </label>
        <input id="admin-user-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Username, email, id or referral code" />
        <button type="submit" className="btn btn-primary btn-small">
          Search
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {!results ? (
        <p aria-busy="true">Loading users…</p>
      ) : results.length === 0 ? (
        <p className="empty-state">No users match.</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Credits</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {results.map((u) => (
                <tr key={u._id}>
                  <td>
                    <button type="button" className="link-button" onClick={() => setSelectedId(u._id)}>
                      {u.username}
                    </button>
                  </td>
                  <td>{u.email}</td>
                  <td>{u.role}</td>
                  <td>{u.credits.toFixed(2)}</td>
                  <td>{u.disabled ? 'Disabled' : 'Active'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function UserDetail({ id, isAdmin, onBack }: { id: string; isAdmin: boolean; onBack: () => void }) {
  const [detail, setDetail] = useState<AdminUserDetail | null>(null);
  const [ledger, setLedger] = useState<{ entries: LedgerEntry[]; balanceCents: number; total: number; pageSize: number } | null>(null);
  const [ledgerPage, setLedgerPage] = useState(1);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [d, l] = await Promise.all([adminApi.user(id), adminApi.ledger(id, ledgerPage)]);
      setDetail(d);
      setLedger(l);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load user');
    }
  }, [id, ledgerPage]);

  useEffect(() => {
    void load();
  }, [load]);

  if (error) {
    return (
      <section className="admin-panel">
        <button type="button" className="btn btn-ghost btn-small" onClick={onBack}>
          ← Users
        </button>
        <p className="field-error" role="alert">
          {error}
        </p>
      </section>
    );
  }
  if (!detail || !ledger) return <p aria-busy="true">Loading user…</p>;
  const { user } = detail;

  return (
    <section className="admin-panel" aria-labelledby="user-detail-title">
      <button type="button" className="btn btn-ghost btn-small" onClick={onBack}>
        ← Users
      </button>
      <h2 id="user-detail-title">{user.username}</h2>
      <dl className="admin-facts">
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Role</dt>
        <dd>
          {user.role}
          {user.subroles.length > 0 && ` (${user.subroles.join(', ')})`}
        </dd>
        <dt>Balance</dt>
        <dd data-testid="admin-user-balance">{formatCredits(ledger.balanceCents)} credits</dd>
        <dt>State</dt>
        <dd>{user.disabled ? 'Disabled' : 'Active'}</dd>
        <dt>Joined</dt>
        <dd>{new Date(user.createdAt).toLocaleString()}</dd>
        <dt>Tickets / payments</dt>
        <dd>
          {detail.counts.tickets} / {detail.counts.payments}
        </dd>
      </dl>

      {isAdmin && <AdjustCreditsForm userId={user._id} onDone={load} />}
      {isAdmin && <AccountActions user={user} onDone={load} />}
      {isAdmin && <AdminTwoFactorReset userId={user._id} />}

      <h3>Ledger</h3>
      {ledger.entries.length === 0 ? (
        <p className="empty-state">No ledger entries yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table" aria-label="Ledger entries">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Balance after</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {ledger.entries.map((e) => (
                <tr key={e._id}>
                  <td>{new Date(e.createdAt).toLocaleString()}</td>
                  <td>{e.kind}</td>
                  <td>{(e.amountCents > 0 ? '+' : '') + formatCredits(e.amountCents)}</td>
                  <td>{formatCredits(e.balanceAfterCents)}</td>
                  <td>{e.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {ledger.total > ledger.pageSize && (
        <Pagination page={ledgerPage} pages={Math.ceil(ledger.total / ledger.pageSize)} onPage={setLedgerPage} label="Ledger pages" />
      )}

      <UserActivity userId={user._id} />

      <h3>Active sessions</h3>
      {detail.sessions.length === 0 ? (
        <p className="empty-state">No active sessions.</p>
      ) : (
        <ul className="admin-sessions">
          {detail.sessions.map((s) => (
            <li key={s._id}>
              {s.userAgent ?? 'Unknown device'} · {s.ip ?? 'unknown address'} · last seen {new Date(s.lastSeenAt).toLocaleString()}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AdjustCreditsForm({ userId, onDone }: { userId: string; onDone: () => Promise<void> }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  // One key per intended adjustment: a double click or a retry posts once.
  const [key, setKey] = useState(newIdempotencyKey);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      await adminApi.adjustCredits(userId, Number(amount), reason, key);
      toast.success('Credits adjusted');
      setAmount('');
      setReason('');
      setKey(newIdempotencyKey());
      await onDone();
    } catch (err) {
      if (err instanceof ApiError) setErrors(Object.keys(err.fieldErrors).length ? err.fieldErrors : { form: err.message });
      else setErrors({ form: 'Failed to adjust credits' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="adjust-title">
      <h3 id="adjust-title">Adjust credits</h3>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="field">
        <label htmlFor="adjust-amount">Amount (credits, negative to deduct)</label>
        <input id="adjust-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={errors.amount ? true : undefined} />
        {errors.amount && <p className="field-error">{errors.amount}</p>}
      </div>
      <div className="field">
        <label htmlFor="adjust-reason">Reason</label>
        <input id="adjust-reason" value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={errors.reason ? true : undefined} />
        {errors.reason && <p className="field-error">{errors.reason}</p>}
      </div>
      <button type="submit" className="btn btn-primary btn-small" disabled={saving}>
        {saving ? 'Saving…' : 'Apply adjustment'}
      </button>
    </form>
  );
}

function AccountActions({ user, onDone }: { user: AdminUser; onDone: () => Promise<void> }) {
  const [role, setRole] = useState<Role>(user.role);
  const [subroles, setSubroles] = useState(user.subroles.join(', '));
  const [reason, setReason] = useState('');

  async function run(action: () => Promise<unknown>, success: string) {
    try {
      await action();
      toast.success(success);
      await onDone();
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'The change failed');
    }
  }

  return (
    <div className="admin-form">
      <h3>Account</h3>
      <div className="ticket-form-row">
        <div className="field">
          <label htmlFor="admin-role">Role</label>
          <select id="admin-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="admin-subroles">Subroles (comma separated)</label>
          <input id="admin-subroles" value={subroles} onChange={(e) => setSubroles(e.target.value)} />
        </div>
      </div>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        onClick={() =>
          void run(
            () => adminApi.changeRole(user._id, role, subroles.split(',').map((s) => s.trim()).filter(Boolean)),
            'Role saved',
          )
        }
      >
        Save role
      </button>
      <div className="field">
        <label htmlFor="admin-disable-reason">Reason for disabling or re-enabling</label>
        <input id="admin-disable-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <button
        type="button"
        className={user.disabled ? 'btn btn-secondary btn-small' : 'btn btn-danger btn-small'}
        onClick={() => void run(() => adminApi.setDisabled(user._id, !user.disabled, reason), user.disabled ? 'Account re-enabled' : 'Account disabled')}
      >
        {user.disabled ? 'Re-enable account' : 'Disable account'}
      </button>
    </div>
  );
}

interface ActivityRow {
  _id: string;
  status: string;
  createdAt: string;
  label: string;
}

/** The user's payments, exchanges and tickets, newest first (the full lists live in their tabs). */
function UserActivity({ userId }: { userId: string }) {
  const [rows, setRows] = useState<{ payments: ActivityRow[]; exchanges: ActivityRow[]; tickets: ActivityRow[] } | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<{ payments: Payment[] }>(`/api/admin/payments${toQueryString({ userId, pageSize: 10 })}`),
      api.get<{ exchanges: Exchange[] }>(`/api/admin/exchanges${toQueryString({ userId, pageSize: 10 })}`),
      api.get<{ tickets: Ticket[] }>(`/api/staff/tickets${toQueryString({ userId, pageSize: 10 })}`),
    ]).then(
      ([p, e, t]) => {
        if (!live) return;
        setRows({
          payments: p.payments.map((x) => ({ _id: x._id, status: x.status, createdAt: x.createdAt, label: `${x.priceAmount.toFixed(2)} USD in ${x.payCurrency.toUpperCase()}` })),
          exchanges: e.exchanges.map((x) => ({ _id: x._id, status: x.status, createdAt: x.createdAt, label: `${x.amount} ${x.from.toUpperCase()} → ${x.to.toUpperCase()}` })),
          tickets: t.tickets.map((x) => ({ _id: x._id, status: x.status, createdAt: x.createdAt, label: `#${x.number} ${x.subject}` })),
        });
      },
      () => live && setRows({ payments: [], exchanges: [], tickets: [] }),
    );
    return () => {
      live = false;
    };
  }, [userId]);

  if (!rows) return <p aria-busy="true">Loading activity…</p>;
  return (
    <div className="admin-activity">
      {(['payments', 'exchanges', 'tickets'] as const).map((kind) => (
        <section key={kind} aria-label={`Recent ${kind}`}>
          <h3>{kind[0]!.toUpperCase() + kind.slice(1)}</h3>
          {rows[kind].length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="admin-sessions">
              {rows[kind].map((r) => (
                <li key={r._id}>
                  {r.label} · {r.status} · {new Date(r.createdAt).toLocaleDateString()}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
