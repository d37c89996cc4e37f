import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
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
import { formatLocaleDate } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useAddSlaHoliday, useRemoveSlaHoliday, useSaveSlaCalendar, useSaveSlaTargets, useSlaSettings } from '../api/sla-settings';
import './support-sla.css';

const WEEKDAYS = [msg`Monday`, msg`Tuesday`, msg`Wednesday`, msg`Thursday`, msg`Friday`, msg`Saturday`, msg`Sunday`];
const PRIORITY_LABELS: Record<SlaPriority, MessageDescriptor> = {
  urgent: msg`Urgent`,
  high: msg`High`,
  normal: msg`Normal`,
  low: msg`Low`,
};

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
  useLocale();
  const ids = useId();
  const settings = useSlaSettings();
  return (
    <section className="admin-panel stack" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`}>{t`Business hours & SLA`}</h2>
        <p className="muted">
          {t`Targets count business time only: the working days and hours below, in the desk's time zone, without holidays. The ticket queue shows the time left and breaches; a breach notifies the assignee, or every support and admin account when nobody is assigned.`}
        </p>
        {!isAdmin && <p className="sla-readonly">{t`Only admins can change these settings.`}</p>}
      </div>
      <QueryState
        data={settings.data}
        loading={<p className="muted">{t`Loading business hours…`}</p>}
        error={settings.error ? errorMessage(settings.error, t`Could not load the business hours`) : null}
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
  useLocale();
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
      if (form.days.length === 0) local.days = t`Choose at least one working day`;
      if (form.start && form.end && form.start >= form.end) local.end = t`The day must end after it starts`;
      return local;
    },
    action: () => save.mutateAsync(form),
    onSuccess: () => toast.success(t`Business hours saved`),
    formError: t`Could not save the business hours`,
  });
  const errors = calendarForm.errors;

  return (
    <Form form={calendarForm} className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t`Working hours`}</h3>
      {calendarForm.formError && (
        <p className="field-error" role="alert">
          {calendarForm.formError}
        </p>
      )}
      <fieldset disabled={readOnly} className="sla-fieldset stack">
        <TextField
          label={t`Time zone`}
          value={form.timeZone}
          list={`${ids}-zones`}
          autoComplete="off"
          spellCheck={false}
          error={errors.timeZone}
          errorAlert
          note={t`An IANA name, e.g. Europe/Berlin or America/New_York`}
          onChange={(e) => setForm((f) => ({ ...f, timeZone: e.target.value }))}
        />
        <datalist id={`${ids}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <fieldset className="sla-days" aria-describedby={errors.days ? `${ids}-days-error` : undefined}>
          <legend>{t`Working days`}</legend>
          <div className="sla-day-list">
            {WEEKDAYS.map((name, i) => (
              <CheckboxField
                key={name.id}
                label={i18n._(name)}
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
            label={t`Day starts`}
            type="time"
            value={form.start}
            error={errors.start}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, start: e.target.value }))}
          />
          <TextField
            label={t`Day ends`}
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
          <StatusButton busy={save.isPending} busyLabel={t`Saving…`} className="btn btn-primary">
            {t`Save working hours`}
          </StatusButton>
        </div>
      )}
    </Form>
  );
}

function Holidays({ holidays, readOnly }: { holidays: SlaSettingsResponse['holidays']; readOnly: boolean }) {
  useLocale();
  const ids = useId();
  const add = useAddSlaHoliday();
  const remove = useRemoveSlaHoliday();
  const [form, setForm] = useState({ day: '', name: '' });
  // The server's field errors go on their fields; any other refusal is said above them.
  const holidayForm = useForm({
    focus: false,
    validate: () => {
      const local: Record<string, string> = {};
      if (!form.day) local.day = t`Choose the date`;
      if (!form.name.trim()) local.name = t`Name the holiday`;
      return local;
    },
    action: () => add.mutateAsync(form),
    onSuccess: () => {
      const name = form.name.trim();
      toast.success(t`${name} added`);
      setForm({ day: '', name: '' });
    },
    formError: t`Could not add the holiday`,
  });
  const errors = holidayForm.errors;

  async function drop(day: string, name: string) {
    try {
      await remove.mutateAsync(day);
      toast.success(t`${name} removed`);
    } catch (err) {
      toast.error(errorMessage(err, t`Could not remove the holiday`));
    }
  }

  return (
    <section className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t`Holidays`}</h3>
      <p className="muted">{t`Dates in the desk's time zone on which no business time counts.`}</p>
      {holidays.length === 0 ? (
        <p className="muted">{t`No holidays.`}</p>
      ) : (
        <div className="table-wrap rtable-wrap">
          <table className="admin-table rtable" aria-label={t`Holidays`}>
            <thead>
              <tr>
                <th scope="col">{t`Date`}</th>
                <th scope="col">{t`Name`}</th>
                {!readOnly && (
                  <th scope="col">
                    <span className="visually-hidden">{t`Actions`}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {holidays.map((h) => (
                <tr key={h.day}>
                  <td data-label={t`Date`}>
                    <time dateTime={h.day}>{formatLocaleDate(h.day)}</time>
                  </td>
                  <td data-label={t`Name`}>{h.name}</td>
                  {!readOnly && (
                    <td className="row-actions">
                      <button
                        type="button"
                        className="btn btn-ghost btn-small"
                        disabled={remove.isPending}
                        onClick={() => void drop(h.day, h.name)}
                      >
                        {t`Remove`} <span className="visually-hidden">{h.name}</span>
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
        <Form form={holidayForm} className="sla-holiday-form" aria-label={t`Add a holiday`}>
          {holidayForm.formError && (
            <p className="field-error" role="alert">
              {holidayForm.formError}
            </p>
          )}
          <TextField
            label={t`Date`}
            type="date"
            value={form.day}
            error={errors.day}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, day: e.target.value }))}
          />
          <TextField
            label={t`Holiday name`}
            value={form.name}
            maxLength={80}
            error={errors.name}
            errorAlert
            onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
          />
          <StatusButton busy={add.isPending} busyLabel={t`Adding…`} className="btn btn-secondary">
            {t`Add holiday`}
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

const firstResponseLabel = (priority: string) => t`${priority}: first response in business hours`;
const resolutionLabel = (priority: string) => t`${priority}: resolution in business hours`;

type TargetTexts = Record<SlaPriority, { firstResponse: string; resolution: string }>;

function TargetsForm({ targets, readOnly }: { targets: SlaTarget[]; readOnly: boolean }) {
  useLocale();
  const ids = useId();
  const save = useSaveSlaTargets();
  const [texts, setTexts] = useState<TargetTexts>(
    () =>
      Object.fromEntries(
        targets.map((target) => [
          target.priority,
          { firstResponse: hoursText(target.firstResponseMinutes), resolution: hoursText(target.resolutionMinutes) },
        ]),
      ) as TargetTexts,
  );
  const body = () =>
    targets.map((target) => ({
      priority: target.priority,
      firstResponseMinutes: minutesFrom(texts[target.priority].firstResponse),
      resolutionMinutes: minutesFrom(texts[target.priority].resolution),
    }));
  // Each field that is no hours in range says so; the server's refusal is said above the table.
  const targetsForm = useForm({
    focus: false,
    validate: () => {
      const local: Record<string, string> = {};
      const max = SLA_TARGET_MAX_MINUTES / 60;
      for (const target of body()) {
        if (Number.isNaN(target.firstResponseMinutes))
          local[`${target.priority}.firstResponse`] = t`Hours between 0.02 and ${max}, or empty`;
        if (Number.isNaN(target.resolutionMinutes)) local[`${target.priority}.resolution`] = t`Hours between 0.02 and ${max}, or empty`;
      }
      return local;
    },
    action: () => save.mutateAsync({ targets: body() }),
    onSuccess: () => toast.success(t`Targets saved`),
    mapFieldErrors: () => ({}),
    formError: (err) => errorMessage(err, t`Could not save the targets`),
  });
  const errors = targetsForm.errors;

  const set = (priority: SlaPriority, key: 'firstResponse' | 'resolution', value: string) =>
    setTexts((all) => ({ ...all, [priority]: { ...all[priority], [key]: value } }));

  return (
    <Form form={targetsForm} className="card stack" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t`Targets per priority`}</h3>
      <p className="muted">{t`In business hours (1.5 is an hour and a half). Leave a field empty for no target.`}</p>
      {targetsForm.formError && (
        <p className="field-error" role="alert">
          {targetsForm.formError}
        </p>
      )}
      <fieldset disabled={readOnly} className="sla-fieldset">
        <div className="table-wrap rtable-wrap">
          <table className="admin-table rtable sla-targets" aria-label={t`Targets per priority`}>
            <thead>
              <tr>
                <th scope="col">{t`Priority`}</th>
                <th scope="col">{t`First response (hours)`}</th>
                <th scope="col">{t`Resolution (hours)`}</th>
              </tr>
            </thead>
            <tbody>
              {targets.map((target) => (
                <tr key={target.priority}>
                  <th scope="row" data-label={t`Priority`}>
                    {i18n._(PRIORITY_LABELS[target.priority])}
                  </th>
                  <td data-label={t`First response`}>
                    <TextField
                      className="sla-target-field"
                      label={<span className="visually-hidden">{firstResponseLabel(i18n._(PRIORITY_LABELS[target.priority]))}</span>}
                      inputMode="decimal"
                      placeholder={t`No target`}
                      value={texts[target.priority].firstResponse}
                      error={errors[`${target.priority}.firstResponse`]}
                      onChange={(e) => set(target.priority, 'firstResponse', e.target.value)}
                    />
                  </td>
                  <td data-label={t`Resolution`}>
                    <TextField
                      className="sla-target-field"
                      label={<span className="visually-hidden">{resolutionLabel(i18n._(PRIORITY_LABELS[target.priority]))}</span>}
                      inputMode="decimal"
                      placeholder={t`No target`}
                      value={texts[target.priority].resolution}
                      error={errors[`${target.priority}.resolution`]}
                      onChange={(e) => set(target.priority, 'resolution', e.target.value)}
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
          <StatusButton busy={save.isPending} busyLabel={t`Saving…`} className="btn btn-primary">
            {t`Save targets`}
          </StatusButton>
        </div>
      )}
    </Form>
  );
}
