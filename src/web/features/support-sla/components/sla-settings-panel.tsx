import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  SLA_TARGET_MAX_MINUTES,
  type SlaCalendar,
  type SlaPriority,
  type SlaSettingsResponse,
  type SlaTarget,
} from '#shared/schemas/support-sla';
import { CheckboxField, TextField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { errorMessage } from '#web/lib/api-client';
import { useAddSlaHoliday, useRemoveSlaHoliday, useSaveSlaCalendar, useSaveSlaTargets, useSlaSettings } from '../api/sla-settings';
import './support-sla.css';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const PRIORITY_LABELS: Record<SlaPriority, string> = { urgent: 'Urgent', high: 'High', normal: 'Normal', low: 'Low' };

/** Every zone the browser knows, for the time-zone field's suggestions. */
function knownZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? [];
}

/**
 * The staff console's "Business hours & SLA" (docs/decisions/0293, docs/support-sla.md): the desk's
 * calendar, its holidays and the per-priority targets. Every staff member reads them; admins change
 * them (the server refuses anyone else), each change in the audit log.
 */
export function SlaSettingsPanel({ isAdmin }: { isAdmin: boolean }) {
  const ids = useId();
  const settings = useSlaSettings();
  return (
    <section className="admin-panel stack" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`}>Business hours &amp; SLA</h2>
        <p className="muted">
          Targets count business time only: the working days and hours below, in the desk&apos;s time zone, without holidays. The ticket
          queue shows the time left and breaches; a breach notifies the assignee, or every support and admin account when nobody is
          assigned.
        </p>
        {!isAdmin && <p className="sla-readonly">Only admins can change these settings.</p>}
      </div>
      <QueryState
        data={settings.data}
        loading={<p className="muted">Loading business hours…</p>}
        error={settings.error ? errorMessage(settings.error, 'Could not load the business hours') : null}
        onRetry={() => void settings.refetch()}
      >
        {(data) => (
          <>
            <CalendarForm key={data.calendar.updatedAt} calendar={data.calendar} readOnly={!isAdmin} />
            <Holidays holidays={data.holidays} readOnly={!isAdmin} />
            <TargetsForm key={JSON.stringify(data.targets)} targets={data.targets} readOnly={!isAdmin} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function CalendarForm({ calendar, readOnly }: { calendar: SlaCalendar; readOnly: boolean }) {
  const ids = useId();
  const save = useSaveSlaCalendar();
  const [form, setForm] = useState<SlaCalendar>({
    timeZone: calendar.timeZone,
    days: calendar.days,
    start: calendar.start,
    end: calendar.end,
  });
  const [zones] = useState(knownZones);

  function toggleDay(day: number, on: boolean) {
    setForm((f) => ({ ...f, days: on ? [...new Set([...f.days, day])].sort((a, b) => a - b) : f.days.filter((d) => d !== day) }));
  }

  // The server's field errors go on their fields; any other refusal is said above them.
  const calendarForm = useForm({
    focus: false,
    validate: () => {
      const local: Record<string, string> = {};
      if (form.days.length === 0) local.days = 'Choose at least one working day';
      if (form.start && form.end && form.start >= form.end) local.end = 'The day must end after it starts';
      return local;
    },
    action: () => save.mutateAsync(form),
    onSuccess: () => toast.success('Business hours saved'),
    formError: 'Could not save the business hours',
  });
  const errors = calendarForm.errors;

  return (
    <Form form={calendarForm} className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>Working hours</h3>
      {calendarForm.formError && (
        <p className="field-error" role="alert">
          {calendarForm.formError}
        </p>
      )}
      <fieldset disabled={readOnly} className="sla-fieldset stack">
        <TextField
          label="Time zone"
          value={form.timeZone}
          list={`${ids}-zones`}
          autoComplete="off"
          spellCheck={false}
          error={errors.timeZone}
          errorAlert
          note="An IANA name, e.g. Europe/Berlin or America/New_York"
          onChange={(e) => setForm((f) => ({ ...f, timeZone: e.target.value }))}
        />
        <datalist id={`${ids}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <fieldset className="sla-days" aria-describedby={errors.days ? `${ids}-days-error` : undefined}>
          <legend>Working days</legend>
          <div className="sla-day-list">
            {WEEKDAYS.map((name, i) => (
              <CheckboxField
                key={name}
                label={name}
                checked={form.days.includes(i + 1)}
                onChange={(e) => toggleDay(i + 1, e.target.checked)}
              />
            ))}
          </div>
          {errors.days && (
            <p id={`${ids}-days-error`} className="field-error" role="alert">
              {errors.days}
            </p>
          )}
        </fieldset>
        <div className="sla-times">
          <TextField
            label="Day starts"
            type="time"
            value={form.start}
            error={errors.start}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, start: e.target.value }))}
          />
          <TextField
            label="Day ends"
            type="time"
            value={form.end}
            error={errors.end}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, end: e.target.value }))}
          />
        </div>
      </fieldset>
      {!readOnly && (
        <div className="cluster">
          <StatusButton busy={save.isPending} busyLabel="Saving…" className="btn btn-primary">
            Save working hours
          </StatusButton>
        </div>
      )}
    </Form>
  );
}

function Holidays({ holidays, readOnly }: { holidays: SlaSettingsResponse['holidays']; readOnly: boolean }) {
  const ids = useId();
  const add = useAddSlaHoliday();
  const remove = useRemoveSlaHoliday();
  const [form, setForm] = useState({ day: '', name: '' });
  // The server's field errors go on their fields; any other refusal is said above them.
  const holidayForm = useForm({
    focus: false,
    validate: () => {
      const local: Record<string, string> = {};
      if (!form.day) local.day = 'Choose the date';
      if (!form.name.trim()) local.name = 'Name the holiday';
      return local;
    },
    action: () => add.mutateAsync(form),
    onSuccess: () => {
      toast.success(`${form.name.trim()} added`);
      setForm({ day: '', name: '' });
    },
    formError: 'Could not add the holiday',
  });
  const errors = holidayForm.errors;

  async function drop(day: string, name: string) {
    try {
      await remove.mutateAsync(day);
      toast.success(`${name} removed`);
    } catch (err) {
      toast.error(errorMessage(err, 'Could not remove the holiday'));
    }
  }

  return (
    <section className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>Holidays</h3>
      <p className="muted">Dates in the desk&apos;s time zone on which no business time counts.</p>
      {holidays.length === 0 ? (
        <p className="muted">No holidays.</p>
      ) : (
        <div className="table-wrap rtable-wrap">
          <table className="admin-table rtable" aria-label="Holidays">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Name</th>
                {!readOnly && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {holidays.map((h) => (
                <tr key={h.day}>
                  <td data-label="Date">{h.day}</td>
                  <td data-label="Name">{h.name}</td>
                  {!readOnly && (
                    <td className="row-actions">
                      <button
                        type="button"
                        className="btn btn-ghost btn-small"
                        disabled={remove.isPending}
                        onClick={() => void drop(h.day, h.name)}
                      >
                        Remove <span className="visually-hidden">{h.name}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!readOnly && (
        <Form form={holidayForm} className="sla-holiday-form" aria-label="Add a holiday">
          {holidayForm.formError && (
            <p className="field-error" role="alert">
              {holidayForm.formError}
            </p>
          )}
          <TextField
            label="Date"
            type="date"
            value={form.day}
            error={errors.day}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, day: e.target.value }))}
          />
          <TextField
            label="Holiday name"
            value={form.name}
            maxLength={80}
            error={errors.name}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
          />
          <StatusButton busy={add.isPending} busyLabel="Adding…" className="btn btn-secondary">
            Add holiday
          </StatusButton>
        </Form>
      )}
    </section>
  );
}

/** Minutes → the hours field's text ("1.5"); empty for no target. */
const hoursText = (minutes: number | null) => (minutes === null ? '' : String(Math.round((minutes / 60) * 100) / 100));

/** The hours field's text → minutes; null for empty (no target); NaN when it is not a number in range. */
function minutesFrom(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return Number.NaN;
  const minutes = Math.round(Number(trimmed) * 60);
  return minutes >= 1 && minutes <= SLA_TARGET_MAX_MINUTES ? minutes : Number.NaN;
}

type TargetTexts = Record<SlaPriority, { firstResponse: string; resolution: string }>;

function TargetsForm({ targets, readOnly }: { targets: SlaTarget[]; readOnly: boolean }) {
  const ids = useId();
  const save = useSaveSlaTargets();
  const [texts, setTexts] = useState<TargetTexts>(
    () =>
      Object.fromEntries(
        targets.map((t) => [t.priority, { firstResponse: hoursText(t.firstResponseMinutes), resolution: hoursText(t.resolutionMinutes) }]),
      ) as TargetTexts,
  );
  const body = () =>
    targets.map((t) => ({
      priority: t.priority,
      firstResponseMinutes: minutesFrom(texts[t.priority].firstResponse),
      resolutionMinutes: minutesFrom(texts[t.priority].resolution),
    }));
  // Each field that is no hours in range says so; the server's refusal is said above the table.
  const targetsForm = useForm({
    focus: false,
    validate: () => {
      const local: Record<string, string> = {};
      for (const t of body()) {
        if (Number.isNaN(t.firstResponseMinutes))
          local[`${t.priority}.firstResponse`] = `Hours between 0.02 and ${SLA_TARGET_MAX_MINUTES / 60}, or empty`;
        if (Number.isNaN(t.resolutionMinutes))
          local[`${t.priority}.resolution`] = `Hours between 0.02 and ${SLA_TARGET_MAX_MINUTES / 60}, or empty`;
      }
      return local;
    },
    action: () => save.mutateAsync({ targets: body() }),
    onSuccess: () => toast.success('Targets saved'),
    mapFieldErrors: () => ({}),
    formError: (err) => errorMessage(err, 'Could not save the targets'),
  });
  const errors = targetsForm.errors;

  const set = (priority: SlaPriority, key: 'firstResponse' | 'resolution', value: string) =>
    setTexts((t) => ({ ...t, [priority]: { ...t[priority], [key]: value } }));

  return (
    <Form form={targetsForm} className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>Targets per priority</h3>
      <p className="muted">In business hours (1.5 is an hour and a half). Leave a field empty for no target.</p>
      {targetsForm.formError && (
        <p className="field-error" role="alert">
          {targetsForm.formError}
        </p>
      )}
      <fieldset disabled={readOnly} className="sla-fieldset">
        <div className="table-wrap rtable-wrap">
          <table className="admin-table rtable sla-targets" aria-label="Targets per priority">
            <thead>
              <tr>
                <th scope="col">Priority</th>
                <th scope="col">First response (hours)</th>
                <th scope="col">Resolution (hours)</th>
              </tr>
            </thead>
            <tbody>
              {targets.map((t) => (
                <tr key={t.priority}>
                  <th scope="row" data-label="Priority">
                    {PRIORITY_LABELS[t.priority]}
                  </th>
                  <td data-label="First response">
                    <TextField
                      className="sla-target-field"
                      label={<span className="visually-hidden">{PRIORITY_LABELS[t.priority]}: first response in business hours</span>}
                      inputMode="decimal"
                      placeholder="No target"
                      value={texts[t.priority].firstResponse}
                      error={errors[`${t.priority}.firstResponse`]}
                      onChange={(e) => set(t.priority, 'firstResponse', e.target.value)}
                    />
                  </td>
                  <td data-label="Resolution">
                    <TextField
                      className="sla-target-field"
                      label={<span className="visually-hidden">{PRIORITY_LABELS[t.priority]}: resolution in business hours</span>}
                      inputMode="decimal"
                      placeholder="No target"
                      value={texts[t.priority].resolution}
                      error={errors[`${t.priority}.resolution`]}
                      onChange={(e) => set(t.priority, 'resolution', e.target.value)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </fieldset>
      {!readOnly && (
        <div className="cluster">
          <StatusButton busy={save.isPending} busyLabel="Saving…" className="btn btn-primary">
            Save targets
          </StatusButton>
        </div>
      )}
    </Form>
  );
}
