import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ROLES, type Role } from '#shared/constants';
import type { AdminUser } from '#shared/schemas/admin';
import { formatCredits } from '#shared/fees';
import { SelectField, TextField } from '#web/components/ui/forms';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useAdjustCredits } from '../api/adjust-credits';
import { useUser } from '../api/get-user';
import { useUserActivity } from '../api/get-user-activity';
import { useUserLedger } from '../api/get-user-ledger';
import { useUsers } from '../api/get-users';
import { useUpdateUser, type UserChange } from '../api/update-user';
import { AdminTwoFactorReset } from '#web/features/two-factor';
import { newIdempotencyKey } from '#web/lib/idempotency-key';

/** Search users; open one to see balance, ledger and sessions, and (admins) act on the account. */
export function UsersPanel({ isAdmin }: { isAdmin: boolean }) {
  const [search, setSearch] = useState('');
  // The search runs on submit: typing alone asks nothing.
  const [submitted, setSubmitted] = useState('');
  const users = useUsers(submitted);
  const results: AdminUser[] | null = users.data?.users ?? null;
  const error = users.isError ? (errorMessage(users.error, 'Failed to search users')) : null;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const runSearch = (text: string) => {
    if (text === submitted) void users.refetch();
    else setSubmitted(text);
  };

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
          runSearch(search);
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
      <QueryState
        data={results}
        error={error}
        loading="Loading users…"
        isEmpty={(results) => results.length === 0}
        empty="No users match."
      >
        {(results) => (
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
      </QueryState>
    </section>
  );
}

function UserDetail({ id, isAdmin, onBack }: { id: string; isAdmin: boolean; onBack: () => void }) {
  const [ledgerPage, setLedgerPage] = useState(1);
  const detailQuery = useUser(id);
  const ledgerQuery = useUserLedger(id, ledgerPage);
  const detail = detailQuery.data ?? null;
  const ledger = ledgerQuery.data ?? null;
  const failure = detailQuery.error ?? ledgerQuery.error;
  const error = failure ? (errorMessage(failure, 'Failed to load user')) : null;

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

      {isAdmin && <AdjustCreditsForm userId={user._id} />}
      {isAdmin && <AccountActions user={user} />}
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

function AdjustCreditsForm({ userId }: { userId: string }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // One key per intended adjustment: a double click or a retry posts once.
  const [key, setKey] = useState(newIdempotencyKey);
  const adjust = useAdjustCredits();
  const saving = adjust.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await adjust.mutateAsync({ userId, amount: Number(amount), reason, idempotencyKey: key });
      toast.success('Credits adjusted');
      setAmount('');
      setReason('');
      setKey(newIdempotencyKey());
    } catch (err) {
      if (err instanceof ApiError) setErrors(Object.keys(err.fieldErrors).length ? err.fieldErrors : { form: err.message });
      else setErrors({ form: 'Failed to adjust credits' });
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
      <TextField
        id="adjust-amount"
        label="Amount (credits, negative to deduct)"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount}
      />
      <TextField id="adjust-reason" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} error={errors.reason} />
      <button type="submit" className="btn btn-primary btn-small" disabled={saving}>
        {saving ? 'Saving…' : 'Apply adjustment'}
      </button>
    </form>
  );
}

function AccountActions({ user }: { user: AdminUser }) {
  const [role, setRole] = useState<Role>(user.role);
  const [subroles, setSubroles] = useState(user.subroles.join(', '));
  const [reason, setReason] = useState('');
  const update = useUpdateUser(user._id);

  async function run(change: UserChange, success: string) {
    try {
      await update.mutateAsync(change);
      toast.success(success);
    } catch (err) {
      toast.error(errorMessage(err, 'The change failed'));
    }
  }

  return (
    <div className="admin-form">
      <h3>Account</h3>
      <div className="ticket-form-row">
        <SelectField id="admin-role" label="Role" options={ROLES} value={role} onChange={(e) => setRole(e.target.value as Role)} />
        <TextField id="admin-subroles" label="Subroles (comma separated)" value={subroles} onChange={(e) => setSubroles(e.target.value)} />
      </div>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        onClick={() =>
          void run({ kind: 'role', role, subroles: subroles.split(',').map((s) => s.trim()).filter(Boolean) }, 'Role saved')
        }
      >
        Save role
      </button>
      <TextField id="admin-disable-reason" label="Reason for disabling or re-enabling" value={reason} onChange={(e) => setReason(e.target.value)} />
      <button
        type="button"
        className={user.disabled ? 'btn btn-secondary btn-small' : 'btn btn-danger btn-small'}
        onClick={() => void run({ kind: 'disabled', disabled: !user.disabled, reason }, user.disabled ? 'Account re-enabled' : 'Account disabled')}
      >
        {user.disabled ? 'Re-enable account' : 'Disable account'}
      </button>
    </div>
  );
}

/** The user's payments, exchanges and tickets, newest first (the full lists live in their tabs). */
function UserActivity({ userId }: { userId: string }) {
  const rows = useUserActivity(userId).data;
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
