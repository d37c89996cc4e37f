import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  webhookSettingsBodySchema,
  type WebhookEvent,
  type WebhookSettings,
} from '#shared/schemas/webhooks';
import { CheckboxField } from '#web/components/ui/forms';
import { Form, StatusButton, schemaFieldErrors, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { CopyButton } from '#web/components/ui/copy-button';
import { formatDateTime } from '#web/lib/format';
import { ApiError } from '#web/lib/api-client';
import { useEnableWebhook } from '../api/enable-webhook';
import { useWebhookSettings } from '../api/get-webhook-settings';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { useSaveWebhookSettings } from '../api/save-webhook-settings';
import { useSendTestWebhook } from '../api/send-test-webhook';
import { DeliveryLog } from './delivery-log';
import '../webhooks.css';

/** docs/product.md#errors. */
export const SAVE_FAILED_MESSAGE = 'Failed to update webhook settings';

type Field = 'url' | 'events' | 'enabled';
type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready' };

const EVENT_HELP: Record<WebhookEvent, string> = {
  'payment.finished': 'A crypto top-up has been paid and credited.',
  'credits.changed': 'Any change to your balance: top-ups, rewards, adjustments.',
  'ticket.answered': 'Support replied to one of your tickets.',
  'exchange.finished': 'One of your exchanges completed.',
  'order.paid': 'You bought an item with your credits.',
  'order.fulfilled': 'One of your orders was fulfilled.',
  'order.refunded': 'One of your orders was refunded (credits returned).',
};

/** Server field keys like `events.1` belong to the events group. */
function toFieldErrors(fields: Record<string, string>): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key.split('.')[0] as Field;
    if (field === 'url' || field === 'events' || field === 'enabled') out[field] ??= message;
  }
  return out;
}

/** The signing secret: in full once (after creation or rotation) with Copy, masked otherwise; Rotate asks first. */
function SigningSecret({
  hint,
  revealed,
  legacy,
  overlapUntil,
  onRotated,
}: {
  hint: string | null;
  revealed: string | null;
  legacy: boolean;
  overlapUntil: string | null;
  onRotated: (secret: string, hint: string) => void;
}) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const rotateRef = useRef<HTMLButtonElement>(null);
  const rotateSecret = useRotateWebhookSecret();
  const stepUp = useStepUp();
  const rotating = rotateSecret.isPending;

  const form = useForm({
    action: () => rotateSecret.mutateAsync(stepUp.fields()),
    onSuccess: (result) => {
      onRotated(result.secret, result.secretHint);
      toast.success('Signing secret rotated');
      stepUp.reset();
      setConfirming(false);
    },
    onError: (err) => {
      // A missing or wrong second factor: the field says why and the confirmation stays open.
      if (stepUp.handleError(err)) return true;
      toast.error(err instanceof ApiError && err.fromServer ? err.message : 'Failed to rotate the signing secret');
      setConfirming(false);
      requestAnimationFrame(() => rotateRef.current?.focus());
      return true;
    },
  });

  useEffect(() => {
    // The confirmation's own button ("Yes, rotate it") takes focus when it opens.
    if (confirming) form.formRef.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
  }, [confirming, form.formRef]);

  return (
    <div className="webhook-secret" role="group" aria-labelledby={`${id}-label`}>
      <h3 id={`${id}-label`}>Signing secret</h3>
      {revealed ? (
        <>
          <div className="webhook-secret-row">
            <input
              id={`${id}-value`}
              className="webhook-secret-value"
              readOnly
              value={revealed}
              aria-labelledby={`${id}-label`}
              aria-describedby={`${id}-note`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton value={revealed} />
          </div>
          <p id={`${id}-note`} className="field-note webhook-secret-warning">
            Copy it now: for your safety it will not be shown again.
          </p>
        </>
      ) : (
        <p className="webhook-secret-row">
          <code className="webhook-secret-hint">{hint}</code>
        </p>
      )}
      {overlapUntil && (
        <p className="webhook-notice" role="status">
          Your previous secret also signs deliveries until <time dateTime={overlapUntil}>{formatDateTime(overlapUntil)}</time>: each
          delivery carries both signatures, so switch your receiver to the new secret before then.
        </p>
      )}
      {legacy && !revealed && (
        <p className="webhook-notice">
          This secret was made before deliveries followed Standard Webhooks. It still works, but the <code>standardwebhooks</code> libraries
          expect it in the standard base64 alphabet: replace <code>-</code> with <code>+</code>, <code>_</code> with <code>/</code> and add{' '}
          <code>=</code> at the end, or rotate the secret.
        </p>
      )}
      <p className="field-note">
        Deliveries follow <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: <code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code> and <code>webhook-signature: v1,&lt;base64 HMAC-SHA256 of “id.timestamp.body”&gt;</code>. Check them
        with this secret, for example with the <code>standardwebhooks</code> package.
      </p>
      {!confirming ? (
        <button ref={rotateRef} type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(true)}>
          Rotate secret
        </button>
      ) : (
        <Form form={form} className="webhook-confirm" aria-label="Confirm rotating the signing secret">
          <p>
            Rotate the signing secret? For the next 24 hours deliveries are signed with both the current and the new secret; after that only
            the new one works, so update your receiver within that time.
          </p>
          <StepUpField stepUp={stepUp} disabled={rotating} />
          <div className="webhook-actions">
            <StatusButton busy={rotating} busyLabel="Rotating…" className="btn btn-danger btn-small">
              Yes, rotate it
            </StatusButton>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={rotating}
              onClick={() => {
                setConfirming(false);
                requestAnimationFrame(() => rotateRef.current?.focus());
              }}
            >
              Cancel
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}

/** /dashboard/settings: where Olympus sends signed webhooks, which events, the secret, a test, and the log. */
export function WebhooksPanel() {
  const id = useId();
  const settingsQuery = useWebhookSettings();
  const saveSettings = useSaveWebhookSettings();
  const stepUp = useStepUp();
  const saving = saveSettings.isPending;
  const sendTestWebhook = useSendTestWebhook();
  const testing = sendTestWebhook.isPending;
  const enableWebhook = useEnableWebhook();
  const saved: WebhookSettings | null = settingsQuery.data ?? null;
  // Try again shows the loading line, not the old error.
  const load: Load = saved
    ? { state: 'ready' }
    : settingsQuery.isError && !settingsQuery.isFetching
      ? { state: 'error' }
      : { state: 'loading' };
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [logVersion, setLogVersion] = useState(0);
  // The form edits its own copy of the saved settings: filled when they arrive, and again from each save's answer.
  const [filledFrom, setFilledFrom] = useState<WebhookSettings | null>(null);

  const apply = (settings: WebhookSettings) => {
    setFilledFrom(settings);
    setUrl(settings.url ?? '');
    setEvents(settings.configured ? settings.events : [...WEBHOOK_EVENTS]);
    setEnabled(settings.configured ? settings.enabled : true);
  };

  if (saved && filledFrom === null) apply(saved);
  const urlChanged = url.trim() !== (saved?.url ?? '');

  const focusField = (errors: Partial<Record<Field, string>>) => {
    const first = (['url', 'events', 'enabled'] as const).find((f) => errors[f]);
    if (first) document.getElementById(`${id}-${first}`)?.focus();
  };

  // Focus goes to the first field in error (for the events, their group's legend), so the form moves it itself.
  const form = useForm<Field, undefined, WebhookSettings>({
    focus: false,
    validate: () => {
      const parsed = webhookSettingsBodySchema.safeParse({ url, events, enabled });
      if (parsed.success) return {};
      const errors = toFieldErrors(schemaFieldErrors(parsed.error));
      focusField(errors);
      return errors;
    },
    action: () => {
      const data = webhookSettingsBodySchema.parse({ url, events, enabled });
      // A new URL needs the second factor when two-factor is on (decision 0205); events and the switch do not.
      return saveSettings.mutateAsync({
        url: data.url,
        events: data.events,
        enabled: data.enabled,
        ...(urlChanged ? stepUp.fields() : {}),
      });
    },
    onSuccess: (result) => {
      stepUp.reset();
      apply(result);
      if (result.secret) setRevealed(result.secret);
      toast.success('Webhook settings saved');
    },
    onError: (err) => {
      if (stepUp.handleError(err)) return true;
      const api = err instanceof ApiError ? err : null;
      if (api?.status === 404) console.error('User not found');
      const errors = toFieldErrors(api?.fieldErrors ?? {});
      form.setErrors(errors);
      focusField(errors);
      toast.error(SAVE_FAILED_MESSAGE);
      return true;
    },
  });
  const fieldErrors = form.errors;

  const sendTest = async () => {
    try {
      await sendTestWebhook.mutateAsync();
      toast.success('Test webhook queued');
      setLogVersion((v) => v + 1);
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? err.message : 'Failed to send a test webhook');
    }
  };

  const reEnable = async () => {
    try {
      const result = await enableWebhook.mutateAsync();
      apply(result);
      toast.success('Webhook turned on again');
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? err.message : 'Failed to turn the webhook on');
    }
  };

  const toggleEvent = (name: WebhookEvent, on: boolean) =>
    setEvents((current) => (on ? WEBHOOK_EVENTS.filter((e) => e === name || current.includes(e)) : current.filter((e) => e !== name)));

  const describedBy = (field: Field, note?: string) => (fieldErrors[field] ? `${id}-${field}-error` : note);

  return (
    <section className="card settings-section webhooks-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Webhooks</h2>
      <p className="muted">Olympus can call your server with a signed POST when something happens in your account.</p>

      {load.state === 'loading' && (
        <p role="status" className="muted">
          Loading webhook settings…
        </p>
      )}
      {load.state === 'error' && (
        <div role="alert" className="webhook-load-error">
          <p>Could not load your webhook settings.</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void settingsQuery.refetch()}>
            Try again
          </button>
        </div>
      )}

      {load.state === 'ready' && (
        <>
          {saved?.disabledAt && (
            <div className="webhook-disabled-notice" role="alert">
              <p>
                <strong>Webhook turned off.</strong> Every delivery failed for five days
                {saved.failingSince && (
                  <>
                    {' '}
                    (since <time dateTime={saved.failingSince}>{formatDateTime(saved.failingSince)}</time>)
                  </>
                )}
                , so Olympus stopped sending on <time dateTime={saved.disabledAt}>{formatDateTime(saved.disabledAt)}</time>. Fix your
                receiver, then turn the webhook on again. Failed deliveries can be replayed from the log below.
              </p>
              <button
                type="button"
                className="btn btn-primary btn-small"
                disabled={enableWebhook.isPending}
                onClick={() => void reEnable()}
              >
                {enableWebhook.isPending ? 'Turning on…' : 'Re-enable webhook'}
              </button>
            </div>
          )}
          <Form form={form} aria-labelledby={`${id}-title`}>
            <div className="field">
              <label htmlFor={`${id}-url`}>Webhook URL</label>
              <input
                id={`${id}-url`}
                name="url"
                type="url"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                placeholder="https://example.com/webhooks/olympus"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                aria-invalid={fieldErrors.url ? true : undefined}
                aria-describedby={describedBy('url', `${id}-url-note`)}
                required
              />
              {fieldErrors.url ? (
                <p id={`${id}-url-error`} className="field-error">
                  {fieldErrors.url}
                </p>
              ) : (
                <p id={`${id}-url-note`} className="field-note">
                  {saved?.privateTargetsAllowed
                    ? 'An https or http address. This server also delivers to private and local network addresses.'
                    : 'A public https address. Private and local network addresses are refused.'}
                </p>
              )}
            </div>

            <fieldset className="webhook-events" aria-describedby={describedBy('events')}>
              <legend id={`${id}-events`} tabIndex={-1}>
                Events
              </legend>
              {WEBHOOK_EVENTS.map((name) => (
                <CheckboxField
                  key={name}
                  id={`${id}-event-${name}`}
                  name="events"
                  value={name}
                  checked={events.includes(name)}
                  onChange={(e) => toggleEvent(name, e.target.checked)}
                  label={
                    <>
                      {WEBHOOK_EVENT_LABELS[name]} <code className="webhook-event-name">{name}</code>
                    </>
                  }
                  note={EVENT_HELP[name]}
                />
              ))}
              {fieldErrors.events && (
                <p id={`${id}-events-error`} className="field-error">
                  {fieldErrors.events}
                </p>
              )}
            </fieldset>

            <CheckboxField
              className="webhook-enabled"
              id={`${id}-enabled`}
              role="switch"
              name="enabled"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              label="Send webhooks"
              error={fieldErrors.enabled}
            />

            {(urlChanged || stepUp.error) && <StepUpField stepUp={stepUp} disabled={saving} />}

            <div className="webhook-actions">
              <StatusButton busy={saving} busyLabel="Saving…" className="btn btn-primary">
                Save webhook
              </StatusButton>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={!saved?.configured || testing}
                aria-busy={testing || undefined}
                onClick={() => void sendTest()}
              >
                {testing ? 'Sending…' : 'Send test'}
              </button>
            </div>
            {!saved?.configured && <p className="field-note">Save a URL to get your signing secret and send a test.</p>}
          </Form>

          {saved?.configured && (
            <SigningSecret
              hint={saved.secretHint}
              revealed={revealed}
              legacy={saved.legacySecret}
              overlapUntil={saved.previousSecretExpiresAt}
              onRotated={(secret) => setRevealed(secret)}
            />
          )}

          <DeliveryLog reloadKey={logVersion} />
        </>
      )}
    </section>
  );
}
