import { useId, useState, type FormEvent } from 'react';
import { formatCredits } from '#shared/fees';
import type { PendingClosure } from '#shared/schemas/account-closure';
import { TextField } from '#web/components/ui/forms';
import { QueryTable } from '#web/components/ui/query-table';
import { errorMessage } from '#web/lib/api-client';
import { formatWhen } from '#web/lib/format';
import { useEraseAccount } from '../api/erase-account';
import { usePendingClosures } from '../api/get-pending-closures';
import '../account-closure.css';

/** Erasing at once asks for the username typed again; the server checks it and records the action. */
function EraseNowForm({ closure, onDone }: { closure: PendingClosure; onDone: (message: string | null) => void }) {
  const id = useId();
  const erase = useEraseAccount();
  const [typed, setTyped] = useState('');

  function submit(e: FormEvent) {
    e.preventDefault();
    if (erase.isPending) return;
    erase.mutate(
      { id: closure._id, confirmUsername: typed },
      { onSuccess: () => onDone(`${closure.username} was erased; ${formatCredits(closure.balanceCents)} credits were written off.`) },
    );
  }

  return (
    <form className="erase-now" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Erase {closure.username} now?</h3>
      <p>
        This cannot be undone. The person can no longer restore the account; {formatCredits(closure.balanceCents)} credits are written off. Do this
        only when they asked for it. The action is recorded in the audit log.
      </p>
      <TextField
        label={`Type ${closure.username} to confirm`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        required
        error={erase.isError ? errorMessage(erase.error, 'The account could not be erased') : undefined}
        errorAlert
      />
      <div className="actions">
        <button type="submit" className="btn btn-danger btn-small" disabled={erase.isPending || typed.trim() === ''} aria-busy={erase.isPending || undefined}>
          {erase.isPending ? 'Erasing…' : 'Erase now'}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onDone(null)} disabled={erase.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The staff console's pending closures (decision 0255): accounts whose owners closed them, with the
 * balance they forfeit and when the erasure job will erase them. Admins can erase one at once.
 */
export function PendingClosuresPanel({ isAdmin }: { isAdmin: boolean }) {
  const id = useId();
  const closures = usePendingClosures();
  const [erasing, setErasing] = useState<PendingClosure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <section className="admin-panel pending-closures" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Closing accounts</h2>
      <p className="muted">
        Accounts their owners closed. Each is erased automatically on its date unless the owner signs in and restores it; its balance is then written
        off and its financial records are kept under <code>deleted-&lt;id&gt;</code>.
      </p>
      <p role="status" aria-live="polite">
        {notice}
      </p>
      {erasing && (
        <EraseNowForm
          key={erasing._id}
          closure={erasing}
          onDone={(message) => {
            setErasing(null);
            setNotice(message);
          }}
        />
      )}
      <QueryTable
        query={closures}
        label="Closing accounts"
        rows={(data) => data}
        loading="Loading closing accounts…"
        failed="Failed to load closing accounts"
        empty="No account is closing."
        columns={
          <>
            <th scope="col">User</th>
            <th scope="col">Email</th>
            <th scope="col" className="num">
              Balance to forfeit
            </th>
            <th scope="col">Closed</th>
            <th scope="col">Erased on</th>
            {isAdmin && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </>
        }
        row={(c) => (
          <tr key={c._id}>
            <td>{c.username}</td>
            <td>{c.email}</td>
            <td className="num">{formatCredits(c.balanceCents)}</td>
            <td>{formatWhen(c.closingAt)}</td>
            <td>{formatWhen(c.erasureAt)}</td>
            {isAdmin && (
              <td>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => {
                    setNotice(null);
                    setErasing(c);
                  }}
                  aria-label={`Erase ${c.username} now`}
                >
                  Erase now…
                </button>
              </td>
            )}
          </tr>
        )}
      />
    </section>
  );
}
