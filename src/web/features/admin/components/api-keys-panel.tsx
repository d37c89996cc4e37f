import { useId, useState, type FormEvent } from 'react';
import { TextField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { CopyButton } from '#web/components/ui/copy-button';
import { formatWhen } from '#web/lib/format';
import { errorMessage } from '#web/lib/api-client';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

/**
 * The charge API's keys (admin only; the server enforces it). A new key is shown once, right after it
 * is made: the server keeps only its hash. Listing shows names and prefixes; revoking is immediate.
 */
export function ApiKeysPanel() {
  const id = useId();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setShown(null);
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (res) => {
          setShown({ name: res.apiKey.name, key: res.key });
          setName('');
        },
      },
    );
  }

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>API keys</h2>
      <p className="muted">
        Your own services charge users&apos; credits through <code>POST /api/v1/charges</code> with one of these keys
        (<code>Authorization: Bearer olk_live_…</code>). See the API document at <a href="/api/docs">/api/docs</a>.
      </p>
      <form className="admin-search" onSubmit={submit} aria-label="Create an API key">
        <TextField label="Key name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required error={create.isError ? errorMessage(create.error, 'Could not create the key') : null} />
        <button type="submit" className="btn" disabled={create.isPending || !name.trim()}>
          Create key
        </button>
      </form>
      {shown && (
        <div className="api-key-once" role="status" data-testid="new-api-key">
          <p>
            <strong>Copy the key for “{shown.name}” now.</strong> It is shown only this once; Olympus keeps only a hash of it.
          </p>
          <code className="api-key-value" data-testid="new-api-key-value">
            {shown.key}
          </code>
          <div className="actions">
            <CopyButton value={shown.key} />
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setShown(null)}>
              I have saved it
            </button>
          </div>
        </div>
      )}
      {revoke.isError && (
        <p className="field-error" role="alert">
          {errorMessage(revoke.error, 'Could not revoke the key')}
        </p>
      )}
      <QueryState
        data={keys.data?.apiKeys}
        loading="Loading API keys…"
        error={keys.isError ? errorMessage(keys.error, 'Failed to load API keys') : null}
        isEmpty={(list) => list.length === 0}
        empty="No API keys yet."
      >
        {(list) => (
          <div className="table-wrap">
            <table className="admin-table" aria-label="API keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((k) => (
                  <tr key={k._id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{formatWhen(k.createdAt)}</td>
                    <td>{formatWhen(k.lastUsedAt)}</td>
                    <td>{k.revokedAt ? `Revoked ${formatWhen(k.revokedAt)}` : 'Active'}</td>
                    <td>
                      {!k.revokedAt && (
                        <button
                          type="button"
                          className="btn btn-ghost btn-small"
                          disabled={revoke.isPending}
                          onClick={() => {
                            if (window.confirm(`Revoke “${k.name}”? Services using it stop working at once.`)) revoke.mutate(k._id);
                          }}
                        >
                          Revoke<span className="visually-hidden"> {k.name}</span>
                        </button>
                      )}
                    </td>
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
