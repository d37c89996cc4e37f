import { useId } from 'react';
import type { MailPreferences } from '#shared/schemas/mail';
import { CheckboxField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { ApiError } from '#web/lib/api-client';
import { useMailPreferences } from '../api/get-mail-preferences';
import { useUpdateMailPreferences } from '../api/update-mail-preferences';

const OPTIONS: Array<{ key: keyof MailPreferences; label: string; note: string }> = [
  { key: 'paymentCredited', label: 'Payment credited', note: 'When a top-up arrives: amount, fee and credits.' },
  { key: 'ticketReply', label: 'Support replies', note: 'When our team answers one of your tickets.' },
  { key: 'orderUpdates', label: 'Orders', note: 'When an order is paid, fulfilled or refunded.' },
];

/** Optional email notifications; security notices are always sent and are not listed as switches. */
export function MailPreferencesPanel() {
  const id = useId();
  const preferences = useMailPreferences();
  const update = useUpdateMailPreferences();
  const error = update.error instanceof ApiError && update.error.fromServer ? update.error.message : 'Could not save. Try again.';

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Email notifications</h2>
      <p className="muted">Security notices (password or address changed, sign-in from a new device) are always sent.</p>
      {/* A failed refresh shows the error alone, as a failed first load does. */}
      <QueryState
        data={preferences.isError ? undefined : preferences.data}
        loading="Loading…"
        error={preferences.isError ? 'Could not load your notification settings.' : null}
        onRetry={() => void preferences.refetch()}
      >
        {(data) => (
          <fieldset className="fieldset-plain" disabled={update.isPending}>
            <legend className="visually-hidden">Notifications by email</legend>
            {OPTIONS.map((option) => (
              <CheckboxField
                key={option.key}
                id={`${id}-${option.key}`}
                label={option.label}
                note={option.note}
                checked={data[option.key]}
                onChange={(e) => update.mutate({ [option.key]: e.target.checked })}
              />
            ))}
          </fieldset>
        )}
      </QueryState>
      <p role="status" aria-live="polite" className="settings-notice">
        {update.isSuccess ? 'Saved.' : update.isError ? error : null}
      </p>
    </section>
  );
}
