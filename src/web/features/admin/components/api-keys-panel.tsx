import { t } from '@lingui/core/macro';
import { ErrorCode } from '#shared/error-codes';
import { useId, useState } from 'react';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { QueryTable } from '#web/components/ui/query-table';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { CopyButton } from '#web/components/ui/copy-button';
import { formatLocaleDateTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

/** Whether a refusal was about the second factor: the step-up field shows it, not the form. */
const aboutSecondFactor = (err: unknown) =>
  err instanceof ApiError && (err.code === ErrorCode.TWO_FACTOR_REQUIRED || err.code === ErrorCode.INVALID_TWO_FACTOR_CODE);

/** A moment in the language on screen, or "—" when there is none. */
const when = (iso: string | null) => (iso ? formatLocaleDateTime(iso) : '—');

const revokedLabel = (iso: string) => {
  const at = when(iso);
  return t`Revoked ${at}`;
};

/** Confirms a revocation in place, with the second factor when two-factor is on (decision 0205). */
function RevokeKeyForm({ apiKey, onDone }: { apiKey: { _id: string; name: string }; onDone: () => void }) {
  useLocale();
  const revoke = useRevokeApiKey();
  const stepUp = useStepUp();
  const name = apiKey.name;

  // The form shows the request's failure itself (a second-factor refusal goes to the step-up field).
  const form = useForm({
    action: () => revoke.mutateAsync({ id: apiKey._id, ...stepUp.fields() }),
    onSuccess: onDone,
    onError: (err) => {
      stepUp.handleError(err);
      return true;
    },
  });

  return (
    <Form form={form} noValidate={false} className="api-key-revoke" aria-label={t`Revoke ${name}`}>
      <p>{t`Revoke “${name}”? Services using it stop working at once.`}</p>
      {revoke.isError && !aboutSecondFactor(revoke.error) && (
        <p className="field-error" role="alert">
          {errorMessage(revoke.error, t`Could not revoke the key`)}
        </p>
      )}
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={t`Revoking…`} className="btn btn-small">
          {t`Revoke key`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onDone} disabled={form.busy}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}

/**
 * The charge API's keys (admin only; the server enforces it). A new key is shown once, right after it
 * is made: the server keeps only its hash. Listing shows names and prefixes; revoking is immediate.
 */
export function ApiKeysPanel() {
  useLocale();
  const id = useId();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const stepUp = useStepUp();
  const [revoking, setRevoking] = useState<{ _id: string; name: string } | null>(null);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const shownName = shown?.name ?? '';

  // The field shows the request's failure itself (a second-factor refusal goes to the step-up field).
  const form = useForm({
    beforeSubmit: () => setShown(null),
    action: async () => {
      const res = await create.mutateAsync({ name: name.trim(), ...stepUp.fields() });
      setShown({ name: res.apiKey.name, key: res.key });
      setName('');
      stepUp.reset();
    },
    onError: (err) => {
      stepUp.handleError(err);
      return true;
    },
  });

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`API keys`}</h2>
      <p className="muted">
        <RichText
          message={t`Your own services charge users' credits through <0>POST /api/v1/charges</0> with one of these keys (<1>Authorization: Bearer olk_live_…</1>). See the API document at <2>/api/docs</2>.`}
          elements={[<code key="endpoint" />, <code key="header" />, <a key="docs" href="/api/docs" />]}
        />
      </p>
      <Form form={form} noValidate={false} className="admin-search" aria-label={t`Create an API key`}>
        <TextField
          label={t`Key name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={80}
          required
          error={create.isError && !aboutSecondFactor(create.error) ? errorMessage(create.error, t`Could not create the key`) : null}
        />
        <StepUpField stepUp={stepUp} disabled={form.busy} />
        <button type="submit" className="btn" disabled={form.busy || !name.trim()}>
          {t`Create key`}
        </button>
      </Form>
      {shown && (
        <div className="api-key-once" role="status" data-testid="new-api-key">
          <p>
            <strong>{t`Copy the key for “${shownName}” now.`}</strong> {t`It is shown only this once; Olympus keeps only a hash of it.`}
          </p>
          <code className="api-key-value" data-testid="new-api-key-value">
            {shown.key}
          </code>
          <div className="actions">
            <CopyButton value={shown.key} />
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setShown(null)}>
              {t`I have saved it`}
            </button>
          </div>
        </div>
      )}
      {revoking && <RevokeKeyForm key={revoking._id} apiKey={revoking} onDone={() => setRevoking(null)} />}
      <QueryTable
        query={keys}
        label={t`API keys`}
        rows={(data) => data.apiKeys}
        loading={t`Loading API keys…`}
        failed={t`Failed to load API keys`}
        empty={t`No API keys yet.`}
        columns={
          <>
            <th scope="col">{t`Name`}</th>
            <th scope="col">{t`Prefix`}</th>
            <th scope="col">{t`Created`}</th>
            <th scope="col">{t`Last used`}</th>
            <th scope="col">{t`Status`}</th>
            <th scope="col">
              <span className="visually-hidden">{t`Actions`}</span>
            </th>
          </>
        }
        row={(k) => (
          <tr key={k._id}>
            <td>{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{when(k.createdAt)}</td>
            <td>{when(k.lastUsedAt)}</td>
            <td>{k.revokedAt ? revokedLabel(k.revokedAt) : t`Active`}</td>
            <td>
              {!k.revokedAt && (
                <button type="button" className="btn btn-ghost btn-small" onClick={() => setRevoking({ _id: k._id, name: k.name })}>
                  {t`Revoke`}
                  <span className="visually-hidden"> {k.name}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
