import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { WEBHOOK_EVENTS, webhookSettingsBodySchema, type WebhookEvent, type WebhookSettings } from '#shared/schemas/webhooks';
import { CheckboxField } from '#web/components/ui/forms';
import { Form, StatusButton, schemaFieldErrors, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { CopyButton } from '#web/components/ui/copy-button';
import { RichText, useLocale } from '#web/features/language';
import { formatLocaleDateTime } from '#web/lib/format';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { translateValidationMessage } from '#web/lib/validation-messages';
import { useEnableWebhook } from '../api/enable-webhook';
import { useWebhookSettings } from '../api/get-webhook-settings';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { useSaveWebhookSettings } from '../api/save-webhook-settings';
import { useSendTestWebhook } from '../api/send-test-webhook';
import { DeliveryLog, eventLabel } from './delivery-log';
import '../webhooks.css';

/** docs/product.md#errors. */
export const SAVE_FAILED_MESSAGE = msg`Failed to update webhook settings`;

type Field = 'url' | 'events' | 'enabled';
type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready' };

const EVENT_HELP: Record<WebhookEvent, MessageDescriptor> = {
  'payment.finished': msg`A crypto top-up has been paid and credited.`,
  'credits.changed': msg`Any change to your balance: top-ups, rewards, adjustments.`,
  'ticket.answered': msg`Support replied to one of your tickets.`,
  'exchange.finished': msg`One of your exchanges completed.`,
  'order.paid': msg`You bought an item with your credits.`,
  'order.fulfilled': msg`One of your orders was fulfilled.`,
  'order.refunded': msg`One of your orders was refunded (credits returned).`,
};

/** The Standard Webhooks signature header's form: a technical format, shown as it is. */
const SIGNATURE_FORMAT = 'webhook-signature: v1,<base64 HMAC-SHA256 of “id.timestamp.body”>';

const CODES = [0, 1, 2, 3, 4, 5].map((n) => <code key={n} />);

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
  useLocale();
  const [confirming, setConfirming] = useState(false);
  const rotateRef = useRef<HTMLButtonElement>(null);
  const rotateSecret = useRotateWebhookSecret();
  const stepUp = useStepUp();
  const rotating = rotateSecret.isPending;

  const form = useForm({
    action: () => rotateSecret.mutateAsync(stepUp.fields()),
    onSuccess: (result) => {
      onRotated(result.secret, result.secretHint);
      toast.success(t`Signing secret rotated`);
      stepUp.reset();
      setConfirming(false);
    },
    onError: (err) => {
      // A missing or wrong second factor: the field says why and the confirmation stays open.
      if (stepUp.handleError(err)) return true;
      toast.error(err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Failed to rotate the signing secret`);
      setConfirming(false);
      requestAnimationFrame(() => rotateRef.current?.focus());
      return true;
    },
  });

  useEffect(() => {
    // The confirmation's own button ("Yes, rotate it") takes focus when it opens.
    if (confirming) form.formRef.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
  }, [confirming, form.formRef]);

  const until = overlapUntil ? formatLocaleDateTime(overlapUntil) : '';

  return (
    <div className="webhook-secret" role="group" aria-labelledby={`${id}-label`}>
      <h3 id={`${id}-label`}>{t`Signing secret`}</h3>
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
            {t`Copy it now: for your safety it will not be shown again.`}
          </p>
        </>
      ) : (
        <p className="webhook-secret-row">
          <code className="webhook-secret-hint">{hint}</code>
        </p>
      )}
      {overlapUntil && (
        <p className="webhook-notice" role="status">
          <RichText
            message={t`Your previous secret also signs deliveries until <0>${until}</0>: each delivery carries both signatures, so switch your receiver to the new secret before then.`}
            elements={[<time key="until" dateTime={overlapUntil} />]}
          />
        </p>
      )}
      {legacy && !revealed && (
        <p className="webhook-notice">
          <RichText
            message={t`This secret was made before deliveries followed Standard Webhooks. It still works, but the <0>standardwebhooks</0> libraries expect it in the standard base64 alphabet: replace <1>-</1> with <2>+</2>, <3>_</3> with <4>/</4> and add <5>=</5> at the end, or rotate the secret.`}
            elements={CODES}
          />
        </p>
      )}
      <p className="field-note">
        <RichText
          message={t`Deliveries follow <0>Standard Webhooks</0>: <1>webhook-id</1>, <2>webhook-timestamp</2> and <3>${SIGNATURE_FORMAT}</3>. Check them with this secret, for example with the <4>standardwebhooks</4> package.`}
          elements={[<a key="standard" href="https://www.standardwebhooks.com/" />, ...CODES]}
        />
      </p>
      {!confirming ? (
        <button ref={rotateRef} type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(true)}>
          {t`Rotate secret`}
        </button>
      ) : (
        <Form form={form} className="webhook-confirm" aria-label={t`Confirm rotating the signing secret`}>
          <p>
            {t`Rotate the signing secret? For the next 24 hours deliveries are signed with both the current and the new secret; after that only the new one works, so update your receiver within that time.`}
          </p>
          <StepUpField stepUp={stepUp} disabled={rotating} />
          <div className="webhook-actions">
            <StatusButton busy={rotating} busyLabel={t`Rotating…`} className="btn btn-danger btn-small">
              {t`Yes, rotate it`}
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
              {t`Cancel`}
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
  useLocale();
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
      toast.success(t`Webhook settings saved`);
    },
    onError: (err) => {
      if (stepUp.handleError(err)) return true;
      const api = err instanceof ApiError ? err : null;
      if (api?.status === 404) console.error('User not found');
      const errors = toFieldErrors(api?.fieldErrors ?? {});
      form.setErrors(errors);
      focusField(errors);
      toast.error(i18n._(SAVE_FAILED_MESSAGE));
      return true;
    },
  });
  const fieldErrors = form.errors;

  const sendTest = async () => {
    try {
      await sendTestWebhook.mutateAsync();
      toast.success(t`Test webhook queued`);
      setLogVersion((v) => v + 1);
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Failed to send a test webhook`);
    }
  };

  const reEnable = async () => {
    try {
      const result = await enableWebhook.mutateAsync();
      apply(result);
      toast.success(t`Webhook turned on again`);
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Failed to turn the webhook on`);
    }
  };

  const toggleEvent = (name: WebhookEvent, on: boolean) =>
    setEvents((current) => (on ? WEBHOOK_EVENTS.filter((e) => e === name || current.includes(e)) : current.filter((e) => e !== name)));

  const failingSince = saved?.failingSince ? formatLocaleDateTime(saved.failingSince) : null;
  const disabledOn = saved?.disabledAt ? formatLocaleDateTime(saved.disabledAt) : '';
  const describedBy = (field: Field, note?: string) => (fieldErrors[field] ? `${id}-${field}-error` : note);

  return (
    <section className="card settings-section webhooks-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Webhooks`}</h2>
      <p className="muted">{t`Olympus can call your server with a signed POST when something happens in your account.`}</p>

      {load.state === 'loading' && (
        <p role="status" className="muted">
          {t`Loading webhook settings…`}
        </p>
      )}
      {load.state === 'error' && (
        <div role="alert" className="webhook-load-error">
          <p>{t`Could not load your webhook settings.`}</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void settingsQuery.refetch()}>
            {t`Try again`}
          </button>
        </div>
      )}

      {load.state === 'ready' && (
        <>
          {saved?.disabledAt && (
            <div className="webhook-disabled-notice" role="alert">
              <p>
                {failingSince ? (
                  <RichText
                    message={t`<0>Webhook turned off.</0> Every delivery failed for five days (since <1>${failingSince}</1>), so Olympus stopped sending on <2>${disabledOn}</2>. Fix your receiver, then turn the webhook on again. Failed deliveries can be replayed from the log below.`}
                    elements={[
                      <strong key="off" />,
                      <time key="since" dateTime={saved.failingSince!} />,
                      <time key="on" dateTime={saved.disabledAt} />,
                    ]}
                  />
                ) : (
                  <RichText
                    message={t`<0>Webhook turned off.</0> Every delivery failed for five days, so Olympus stopped sending on <1>${disabledOn}</1>. Fix your receiver, then turn the webhook on again. Failed deliveries can be replayed from the log below.`}
                    elements={[<strong key="off" />, <time key="on" dateTime={saved.disabledAt} />]}
                  />
                )}
              </p>
              <button
                type="button"
                className="btn btn-primary btn-small"
                disabled={enableWebhook.isPending}
                onClick={() => void reEnable()}
              >
                {enableWebhook.isPending ? t`Turning on…` : t`Re-enable webhook`}
              </button>
            </div>
          )}
          <Form form={form} aria-labelledby={`${id}-title`}>
            <div className="field">
              <label htmlFor={`${id}-url`}>{t`Webhook URL`}</label>
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
                  {translateValidationMessage(fieldErrors.url)}
                </p>
              ) : (
                <p id={`${id}-url-note`} className="field-note">
                  {saved?.privateTargetsAllowed
                    ? t`An https or http address. This server also delivers to private and local network addresses.`
                    : t`A public https address. Private and local network addresses are refused.`}
                </p>
              )}
            </div>

            <fieldset className="webhook-events" aria-describedby={describedBy('events')}>
              <legend id={`${id}-events`} tabIndex={-1}>
                {t`Events`}
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
                      {eventLabel(name)} <code className="webhook-event-name">{name}</code>
                    </>
                  }
                  note={i18n._(EVENT_HELP[name])}
                />
              ))}
              {fieldErrors.events && (
                <p id={`${id}-events-error`} className="field-error">
                  {translateValidationMessage(fieldErrors.events)}
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
              label={t`Send webhooks`}
              error={fieldErrors.enabled}
            />

            {(urlChanged || stepUp.error) && <StepUpField stepUp={stepUp} disabled={saving} />}

            <div className="webhook-actions">
              <StatusButton busy={saving} busyLabel={t`Saving…`} className="btn btn-primary">
                {t`Save webhook`}
              </StatusButton>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={!saved?.configured || testing}
                aria-busy={testing || undefined}
                onClick={() => void sendTest()}
              >
                {testing ? t`Sending…` : t`Send test`}
              </button>
            </div>
            {!saved?.configured && <p className="field-note">{t`Save a URL to get your signing secret and send a test.`}</p>}
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
