import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import {
  NOTIFICATION_CHANNELS,
  type ChannelState,
  type NotificationChannel,
  type NotificationPreferences,
} from '#shared/schemas/notifications';
import { QueryState } from '#web/components/ui/query-state';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { errorMessage } from '#web/lib/api-client';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences';
import './notifications.css';
import { formatCredits } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { CHANNEL_LABELS, EVENT_LABELS } from '../labels';

/** Why a chat column does nothing yet, or was turned off by the platform's refusal. */
function ChannelNotice({ state, onResume, busy }: { state: ChannelState; onResume: () => void; busy: boolean }) {
  useLocale();
  const name = i18n._(CHANNEL_LABELS[state.channel]);
  if (state.disabledReason) {
    const reason = state.disabledReason;
    return (
      <div className="notification-channel-off" role="note">
        <p>
          <RichText
            message={t`<0>${name} is turned off</0> because ${name} refused our last message: “${reason}”. Unblock the bot or open your messages, then turn it back on.`}
            elements={[<strong />]}
          />
        </p>
        <button type="button" className="btn btn-secondary btn-small" onClick={onResume} disabled={busy}>
          {t`Turn ${name} back on`}
        </button>
      </div>
    );
  }
  if (!state.connected)
    return <p className="muted">{t`${name}: not connected. Connect it under Connections to receive these notices there.`}</p>;
  return null;
}

/**
 * The preferences matrix (event × channel: email, in-app, Telegram, Discord). Security notices always go by
 * email and in the app (those boxes are checked and locked); the email column is the same setting as the
 * unsubscribe links in mails. A chat channel the platform refused is shown turned off, with why.
 */
export function NotificationPreferencesPanel() {
  const id = useId();
  useLocale();
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const [threshold, setThreshold] = useState<string | null>(null);

  const save = (body: Parameters<typeof update.mutate>[0]) => update.mutate(body);
  const thresholdValue = (data: NotificationPreferences) =>
    threshold ?? (data.lowBalanceThresholdCents === null ? '' : formatCredits(data.lowBalanceThresholdCents));
  // The low-balance threshold; the browser checks the number first (noValidate={false}), and saving is said below the panel.
  const thresholdForm = useForm({
    focus: false,
    action: () => {
      if (!preferences.data) return;
      const raw = thresholdValue(preferences.data).trim();
      const cents = raw === '' ? null : Math.round(Number(raw) * 100);
      if (cents !== null && (!Number.isFinite(cents) || cents < 0)) return;
      save({ lowBalanceThresholdCents: cents });
      setThreshold(null);
    },
  });

  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`} id="notifications">
      <h2 id={`${id}-title`}>{t`Notifications`}</h2>
      <p className="muted">{t`Choose where each kind of notice reaches you. Security notices always come by email and in the app.`}</p>
      <QueryState
        data={preferences.isError ? undefined : preferences.data}
        loading={t`Loading…`}
        error={preferences.isError ? t`Could not load your notification settings.` : null}
        onRetry={() => void preferences.refetch()}
      >
        {(data) => (
          <div className="stack" style={{ ['--stack-gap' as string]: '14px' }}>
            {data.channels
              .filter((c) => c.channel === 'telegram' || c.channel === 'discord')
              .map((c) => (
                <ChannelNotice
                  key={c.channel}
                  state={c}
                  busy={update.isPending}
                  onResume={() => save({ resumeChannels: [c.channel as 'telegram' | 'discord'] })}
                />
              ))}
            <div className="rtable-wrap notification-matrix-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
              <table className="rtable notification-matrix">
                <caption className="visually-hidden">{t`Notifications by event and channel`}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t`Event`}</th>
                    {NOTIFICATION_CHANNELS.map((channel) => (
                      <th scope="col" key={channel}>
                        {i18n._(CHANNEL_LABELS[channel])}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.matrix.map((row) => (
                    <tr key={row.event}>
                      <th scope="row">{i18n._(EVENT_LABELS[row.event])}</th>
                      {NOTIFICATION_CHANNELS.map((channel: NotificationChannel) => {
                        const cell = row.channels[channel]!;
                        const event = i18n._(EVENT_LABELS[row.event]);
                        const via = i18n._(CHANNEL_LABELS[channel]);
                        return (
                          <td key={channel} data-label={via}>
                            <input
                              type="checkbox"
                              aria-label={cell.locked ? t`${event} by ${via} (always on)` : t`${event} by ${via}`}
                              checked={cell.enabled}
                              disabled={cell.locked || update.isPending}
                              title={cell.locked ? t`Security notices always reach you here` : undefined}
                              onChange={(e) => save({ changes: [{ event: row.event, channel, enabled: e.target.checked }] })}
                            />
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Form form={thresholdForm} noValidate={false} className="cluster notification-threshold">
              <label htmlFor={`${id}-threshold`}>{t`Tell me when my balance falls below (credits)`}</label>
              <input
                id={`${id}-threshold`}
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                placeholder={t`Never`}
                value={thresholdValue(data)}
                onChange={(e) => setThreshold(e.target.value)}
              />
              <StatusButton busy={update.isPending} className="btn btn-secondary btn-small">
                {t`Save`}
              </StatusButton>
            </Form>
          </div>
        )}
      </QueryState>
      <p role="status" aria-live="polite" className="settings-notice">
        {update.isSuccess ? t`Saved.` : update.isError ? errorMessage(update.error, t`Could not save. Try again.`) : null}
      </p>
    </section>
  );
}
