import { t } from '@lingui/core/macro';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { INCIDENT_IMPACTS, INCIDENT_STATUSES, STATUS_COMPONENT_IDS, type Incident, type Maintenance } from '#shared/schemas/status';
import { useQuery } from '@tanstack/react-query';
import { SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { Form, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import {
  statusQueryOptions,
  useCancelMaintenance,
  useCreateIncident,
  useCreateMaintenance,
  useUpdateIncident,
  useUpdateMaintenance,
} from '#web/features/status';
import { codeLabel, COMPONENT_ID_LABELS, IMPACT_LABELS, INCIDENT_STATUS_LABELS } from './labels';

/** A refusal without field errors is said above the form in the server's words; anything else says nothing there. */
const serverMessage = (err: unknown, fields: Record<string, string>) =>
  err instanceof ApiError && Object.keys(fields).length === 0 ? errorMessage(err, err.message) : null;

/** The start and end a maintenance window needs before it is sent. */
function windowProblems(startsAt: string, endsAt: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!toIso(startsAt)) problems.startsAt = t`Enter when it starts`;
  if (!toIso(endsAt)) problems.endsAt = t`Enter when it ends`;
  return problems;
}

/** Staff post incidents to the status page and add updates until they are resolved. */
export function IncidentsPanel() {
  useLocale();
  const status = useQuery(statusQueryOptions());
  const incidents: Incident[] | null = status.data?.incidents ?? null;
  const createIncident = useCreateIncident();
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<(typeof INCIDENT_IMPACTS)[number]>('minor');
  const [components, setComponents] = useState<string[]>([]);
  const [message, setMessage] = useState('');

  // A failed load is a toast, as before; the list keeps what it had.
  const loadError = status.isError ? errorMessage(status.error, t`Failed to load incidents`) : null;
  useEffect(() => {
    if (loadError) toast.error(loadError);
  }, [loadError, status.errorUpdatedAt]);

  const form = useForm({
    action: async () => {
      await createIncident.mutateAsync({ title, impact, components, message });
      toast.success(t`Incident posted`);
      setTitle('');
      setMessage('');
      setComponents([]);
    },
    formError: serverMessage,
  });
  const errors = form.errors;

  return (
    <section className="admin-panel" aria-labelledby="incidents-title">
      <h2 id="incidents-title">{t`Incidents`}</h2>
      <Form form={form} className="admin-form" aria-label={t`Post an incident`}>
        {form.formError && <p className="field-error">{form.formError}</p>}
        <TextField id="incident-title" label={t`Title`} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
        <SelectField
          id="incident-impact"
          label={t`Impact`}
          options={INCIDENT_IMPACTS.map((value) => ({ value, label: codeLabel(IMPACT_LABELS, value) }))}
          value={impact}
          onChange={(e) => setImpact(e.target.value as typeof impact)}
        />
        <fieldset className="field">
          <legend>{t`Affected components`}</legend>
          {STATUS_COMPONENT_IDS.map((c) => (
            <label key={c} className="checkbox">
              <input
                type="checkbox"
                checked={components.includes(c)}
                onChange={(e) => setComponents((list) => (e.target.checked ? [...list, c] : list.filter((x) => x !== c)))}
              />{' '}
              {codeLabel(COMPONENT_ID_LABELS, c)}
            </label>
          ))}
        </fieldset>
        <TextareaField
          id="incident-message"
          label={t`What is happening`}
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={errors.message}
        />
        <button type="submit" className="btn btn-primary btn-small">
          {t`Post incident`}
        </button>
      </Form>
      <MaintenanceForm />
      {!incidents ? (
        <p aria-busy="true">{t`Loading…`}</p>
      ) : incidents.length === 0 ? (
        <p className="empty-state">{t`No incidents in the last 90 days.`}</p>
      ) : (
        <ul className="ticket-list">
          {incidents.map((incident) => (
            <IncidentItem key={incident._id} incident={incident} />
          ))}
        </ul>
      )}
    </section>
  );
}

function IncidentItem({ incident }: { incident: Incident }) {
  useLocale();
  const [status, setStatus] = useState(incident.status);
  const [message, setMessage] = useState('');
  const updateIncident = useUpdateIncident();
  const form = useForm({
    action: async () => {
      await updateIncident.mutateAsync({ id: incident._id, status, ...(message.trim() ? { message } : {}) });
      toast.success(t`Incident updated`);
      setMessage('');
    },
    onError: (err) => {
      toast.error(errorMessage(err, t`Failed to update the incident`));
      return true;
    },
  });
  return (
    <li className="ticket-message">
      <div className="ticket-message-head">
        <strong>{incident.title}</strong>
        <span>
          {codeLabel(IMPACT_LABELS, incident.impact)} · {codeLabel(INCIDENT_STATUS_LABELS, incident.status)}
        </span>
      </div>
      <Form form={form} noValidate={false} className="queue-filters" aria-label={t`Update ${incident.title}`}>
        <label className="inline-field">
          <span>{t`Status`}</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            {INCIDENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {codeLabel(INCIDENT_STATUS_LABELS, s)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t`Update`}</span>
          <input value={message} onChange={(e) => setMessage(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-secondary btn-small">
          {t`Save`}
        </button>
      </Form>
    </li>
  );
}

/** A `datetime-local` value (the staff member's own time zone) as an ISO instant; '' when empty or invalid. */
function toIso(local: string): string {
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** An ISO instant as a `datetime-local` value in the staff member's own time zone. */
function toLocal(iso: string): string {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** One upcoming or running window: staff may edit it in place or cancel it (after a confirmation). */
function MaintenanceItem({ maintenance: m }: { maintenance: Maintenance }) {
  useLocale();
  const updateMaintenance = useUpdateMaintenance();
  const cancelMaintenance = useCancelMaintenance();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(m.title);
  const [description, setDescription] = useState(m.description);
  const [startsAt, setStartsAt] = useState(toLocal(m.startsAt));
  const [endsAt, setEndsAt] = useState(toLocal(m.endsAt));
  const form = useForm({
    validate: () => windowProblems(startsAt, endsAt),
    action: async () => {
      await updateMaintenance.mutateAsync({ id: m._id, title, description, startsAt: toIso(startsAt), endsAt: toIso(endsAt) });
      toast.success(t`Maintenance updated`);
      setEditing(false);
    },
    formError: serverMessage,
  });
  const errors = form.errors;

  function startEditing() {
    setTitle(m.title);
    setDescription(m.description);
    setStartsAt(toLocal(m.startsAt));
    setEndsAt(toLocal(m.endsAt));
    form.reset();
    setEditing(true);
  }

  async function cancel() {
    const title = m.title;
    if (!window.confirm(t`Cancel the maintenance “${title}”? It leaves the status page and subscribers are told.`)) return;
    try {
      await cancelMaintenance.mutateAsync(m._id);
      toast.success(t`Maintenance cancelled`);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to cancel the maintenance`));
    }
  }

  return (
    <li className="ticket-message">
      <strong>{m.title}</strong> · {formatLocaleDateTime(m.startsAt)} – {formatLocaleDateTime(m.endsAt)} ·{' '}
      {m.state === 'in_progress' ? t`in progress` : t`scheduled`}{' '}
      <button
        type="button"
        className="btn btn-secondary btn-small"
        aria-label={t`Edit ${m.title}`}
        onClick={startEditing}
        disabled={editing}
      >
        {t`Edit`}
      </button>{' '}
      <button
        type="button"
        className="btn btn-danger btn-small"
        aria-label={t`Cancel ${m.title}`}
        onClick={() => void cancel()}
        disabled={cancelMaintenance.isPending}
      >
        {t`Cancel`}
      </button>
      {editing && (
        <Form form={form} className="admin-form" aria-label={t`Edit maintenance ${m.title}`}>
          {form.formError && <p className="field-error">{form.formError}</p>}
          <TextField
            id={`maintenance-${m._id}-title`}
            label={t`Title`}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            error={errors.title}
          />
          <TextareaField
            id={`maintenance-${m._id}-description`}
            label={t`Description`}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={errors.description}
          />
          <TextField
            id={`maintenance-${m._id}-starts`}
            label={t`Starts`}
            type="datetime-local"
            value={startsAt}
            onChange={(e) => setStartsAt(e.target.value)}
            error={errors.startsAt}
          />
          <TextField
            id={`maintenance-${m._id}-ends`}
            label={t`Ends`}
            type="datetime-local"
            value={endsAt}
            onChange={(e) => setEndsAt(e.target.value)}
            error={errors.endsAt}
          />
          <button type="submit" className="btn btn-primary btn-small" disabled={updateMaintenance.isPending}>
            {t`Save changes`}
          </button>{' '}
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setEditing(false)}>
            {t`Keep as is`}
          </button>
        </Form>
      )}
    </li>
  );
}

/** Staff announce a maintenance window in advance: shown on /status, in the feed, and mailed to subscribers. */
function MaintenanceForm() {
  useLocale();
  const status = useQuery(statusQueryOptions());
  const createMaintenance = useCreateMaintenance();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const upcoming = (status.data?.maintenance ?? []).filter((m) => m.state !== 'completed');

  const form = useForm({
    validate: () => windowProblems(startsAt, endsAt),
    action: async () => {
      await createMaintenance.mutateAsync({ title, description, startsAt: toIso(startsAt), endsAt: toIso(endsAt) });
      toast.success(t`Maintenance scheduled`);
      setTitle('');
      setDescription('');
      setStartsAt('');
      setEndsAt('');
    },
    formError: serverMessage,
  });
  const errors = form.errors;

  return (
    <div className="maintenance-admin">
      <h3 id="maintenance-admin-title">{t`Scheduled maintenance`}</h3>
      <Form form={form} className="admin-form" aria-labelledby="maintenance-admin-title">
        {form.formError && <p className="field-error">{form.formError}</p>}
        <TextField
          id="maintenance-title"
          label={t`Maintenance title`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={errors.title}
        />
        <TextareaField
          id="maintenance-description"
          label={t`Description`}
          rows={2}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
        />
        <TextField
          id="maintenance-starts"
          label={t`Starts`}
          type="datetime-local"
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={errors.startsAt}
        />
        <TextField
          id="maintenance-ends"
          label={t`Ends`}
          type="datetime-local"
          value={endsAt}
          onChange={(e) => setEndsAt(e.target.value)}
          error={errors.endsAt}
        />
        <button type="submit" className="btn btn-primary btn-small" disabled={createMaintenance.isPending}>
          {t`Schedule maintenance`}
        </button>
      </Form>
      {upcoming.length > 0 && (
        <ul className="ticket-list" aria-label={t`Upcoming maintenance`}>
          {upcoming.map((m) => (
            <MaintenanceItem key={m._id} maintenance={m} />
          ))}
        </ul>
      )}
    </div>
  );
}
