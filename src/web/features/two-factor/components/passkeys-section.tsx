import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { formatDateTime } from '#web/lib/format';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useAddPasskey } from '../api/add-passkey';
import { usePasskeys } from '../api/get-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { passkeysUnavailableHere } from '../passkeys-availability';
import { TextField } from '#web/components/ui/forms';

/** The browser's refusal (cancelled, timed out) or the server's message. */
export function passkeyErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return errorMessage(err, fallback);
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) return 'The passkey prompt was cancelled or timed out.';
  if (err instanceof Error && err.name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  return fallback;
}

/** Settings: add (named), list (created, last used) and remove passkeys. */
export function PasskeysSection() {
  const id = useId();
  const hereReason = passkeysUnavailableHere();
  const list = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reason = hereReason ?? (list.data && !list.data.available ? list.data.reason : null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Name the passkey, e.g. "Work laptop"');
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setError(null);
    try {
      await add.mutateAsync(trimmed);
      setName('');
      toast.success('Passkey added');
    } catch (err) {
      setError(passkeyErrorMessage(err, 'Could not add the passkey. Try again.'));
    }
  };

  const removeOne = async (passkeyId: string, passkeyName: string) => {
    if (!window.confirm(`Remove the passkey "${passkeyName}"? It will no longer sign you in.`)) return;
    try {
      await remove.mutateAsync(passkeyId);
      toast.success('Passkey removed');
    } catch (err) {
      toast.error(passkeyErrorMessage(err, 'Could not remove the passkey.'));
    }
  };

  return (
    <section className="card settings-section passkeys-section" aria-labelledby={`${id}-title`} aria-busy={list.isPending || undefined}>
      <h2 id={`${id}-title`}>Passkeys</h2>
      <p className="muted">Sign in with your fingerprint, face or device PIN instead of a password. A passkey also works as the second step.</p>
      {reason && (
        <p className="passkeys-unavailable" role="note">
          {reason}
        </p>
      )}
      {list.isPending && <p className="muted">Loading passkeys…</p>}
      {list.isError && (
        <div>
          <p className="field-error">Could not load your passkeys.</p>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      )}
      {list.data && list.data.passkeys.length === 0 && <p className="muted">No passkeys yet.</p>}
      {list.data && list.data.passkeys.length > 0 && (
        <ul className="passkey-list" aria-label="Your passkeys">
          {list.data.passkeys.map((p) => (
            <li key={p._id} className="passkey-item">
              <div>
                <p className="passkey-name">{p.name}</p>
                <p className="muted">
                  Added {formatDateTime(p.createdAt)} · {p.lastUsedAt ? `last used ${formatDateTime(p.lastUsedAt)}` : 'never used'}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => void removeOne(p._id, p.name)}
                aria-label={`Remove passkey ${p.name}`}
                disabled={remove.isPending}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {!reason && (
        <form noValidate onSubmit={submit} className="passkey-add">
          <TextField
            id={`${id}-name`}
            label="Passkey name"
            error={error}
            errorAlert
            name="passkeyName"
            maxLength={60}
            placeholder="e.g. Work laptop"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="btn btn-secondary btn-small" disabled={add.isPending} aria-busy={add.isPending || undefined}>
            {add.isPending ? 'Waiting for your device…' : 'Add a passkey'}
          </button>
        </form>
      )}
    </section>
  );
}
