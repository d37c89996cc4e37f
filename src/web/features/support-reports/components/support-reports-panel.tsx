import { plural, t } from '@lingui/core/macro';
import { useId, useState, type ReactNode } from 'react';
import { supportReportQuerySchema, type Attainment, type SupportReport } from '#shared/schemas/support-reports';
import { TextField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { Form, useForm } from '#web/components/ui/use-form';
import { errorMessage } from '#web/lib/api-client';
import { useDownloadSupportReportCsv } from '../api/download-support-report';
import { useSupportReport, type ReportRange } from '../api/get-support-report';
import './support-reports.css';
import { formatLocaleDate, formatLocaleNumber, formatLocalePercent } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { priorityLabel } from './labels';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last 8 weeks up to today (UTC), both days included. */
export function defaultRange(now = Date.now()): ReportRange {
  return { from: isoDay(now - 55 * DAY), to: isoDay(now) };
}

/** Business minutes as people read them: "45 min", "8 h 30 min"; a dash when nothing was measured. */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '—';
  const whole = Math.round(minutes);
  if (whole === 0) return minutes > 0 ? t`< 1 min` : t`0 min`;
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  if (h === 0) return t`${m} min`;
  return m === 0 ? t`${h} h` : t`${h} h ${m} min`;
}

/** A percentage and a rating written as the language on screen writes numbers ("66.7%", "66,7 %"; "4.50", "4,50"). */
const formatPercent = (value: number) => formatLocalePercent(value, 1, { trimZeros: true });
const formatRating = (value: number) => formatLocaleNumber(value, 2);

const percent = (a: Attainment) => (a.percent === null ? '—' : formatPercent(a.percent));
const metOf = (a: Attainment) => {
  const { met, counted } = a;
  return counted === 0 ? t`nothing decided yet` : t`${met} of ${counted}`;
};
/** "75% (3 of 4)"; a dash alone when nothing is decided. */
const slaCell = (a: Attainment) => (a.counted === 0 ? '—' : `${percent(a)} (${metOf(a)})`);
const rating = (v: number | null) => (v === null ? '—' : formatRating(v));

/** Staff console → Reports: the desk's figures over a range of days (docs/support-reports.md). */
export function SupportReportsPanel() {
  useLocale();
  const ids = useId();
  const [draft, setDraft] = useState<ReportRange>(() => defaultRange());
  const [range, setRange] = useState<ReportRange>(draft);
  const report = useSupportReport(range);
  const download = useDownloadSupportReportCsv();
  // The shared schema checks the range; its first problem shows under "To".
  const form = useForm({
    focus: false,
    schema: supportReportQuerySchema,
    values: () => draft,
    action: (data) => setRange(data),
  });
  const formError = Object.values(form.errors)[0] ?? null;
  const rangeFrom = formatLocaleDate(range.from);
  const rangeTo = formatLocaleDate(range.to);

  return (
    <section className="admin-panel stack support-reports" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Support reports`}</h2>
      <Form form={form} className="support-reports-form" aria-label={t`Report range`}>
        <TextField label={t`From`} type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} required />
        <TextField
          label={t`To`}
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          required
          error={formError}
          errorAlert
        />
        <div className="cluster support-reports-actions">
          <button type="submit" className="btn btn-primary">
            {t`Show report`}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => download.mutate(range)} disabled={download.isPending}>
            {download.isPending ? t`Preparing…` : t`Download CSV`}
          </button>
        </div>
      </Form>
      <p className="field-note">
        {t`Tickets created from ${rangeFrom} to ${rangeTo} (UTC, both days included). Times are business hours of the desk's calendar.`}
      </p>
      {download.isError && (
        <p className="field-error" role="alert">
          {errorMessage(download.error, t`Could not download the CSV`)}
        </p>
      )}
      <QueryState
        data={report.data}
        loading={t`Loading the report…`}
        error={report.isError ? errorMessage(report.error, t`Failed to load the report`) : null}
        onRetry={() => void report.refetch()}
        isEmpty={(r) => r.tickets === 0 && r.weeks.every((w) => w.resolved === 0)}
        empty={t`No tickets were created in this range. Pick other days.`}
      >
        {(r) => <ReportView report={r} busy={report.isFetching} />}
      </QueryState>
    </section>
  );
}

/** Everything one report shows; `busy` while the next range loads over it. */
export function ReportView({ report: r, busy = false }: { report: SupportReport; busy?: boolean }) {
  useLocale();
  const firstP90 = formatMinutes(r.firstResponse.p90Minutes);
  const resolutionP90 = formatMinutes(r.resolution.p90Minutes);
  const rated = r.ratings.count;
  return (
    <div className="stack" aria-busy={busy || undefined}>
      <dl className="support-figures" aria-label={t`Summary`}>
        <Figure label={t`Tickets`} value={String(r.tickets)} />
        <Figure label={t`Resolved`} value={String(r.resolved)} />
        <Figure
          label={t`First response, median`}
          value={formatMinutes(r.firstResponse.medianMinutes)}
          note={t`90th percentile ${firstP90}`}
        />
        <Figure
          label={t`Resolution, median`}
          value={formatMinutes(r.resolution.medianMinutes)}
          note={t`90th percentile ${resolutionP90}`}
        />
        <Figure label={t`First response SLA`} value={percent(r.sla.firstResponse)} note={metOf(r.sla.firstResponse)} />
        <Figure label={t`Resolution SLA`} value={percent(r.sla.resolution)} note={metOf(r.sla.resolution)} />
        <Figure label={t`Average rating`} value={rating(r.ratings.average)} note={t`${rated} rated`} />
      </dl>

      <WeeklyChart weeks={r.weeks} />
      <Table caption={t`Weekly (ISO weeks, Monday to Sunday, UTC)`}>
        <thead>
          <tr>
            <th scope="col">{t`Week`}</th>
            <th scope="col" className="num">
              {t`Opened`}
            </th>
            <th scope="col" className="num">
              {t`Resolved`}
            </th>
            <th scope="col" className="num">
              {t`Median first response`}
            </th>
            <th scope="col" className="num">
              {t`First response SLA`}
            </th>
            <th scope="col" className="num">
              {t`Resolution SLA`}
            </th>
          </tr>
        </thead>
        <tbody>
          {r.weeks.map((w) => (
            <tr key={w.weekStart}>
              <th scope="row" data-label={t`Week`}>
                {w.isoWeek} <span className="muted">{t`from ${w.weekStart}`}</span>
              </th>
              <Num label={t`Opened`}>{w.opened}</Num>
              <Num label={t`Resolved`}>{w.resolved}</Num>
              <Num label={t`Median first response`}>{formatMinutes(w.firstResponseMedianMinutes)}</Num>
              <Num label={t`First response SLA`}>{percent(w.firstResponse)}</Num>
              <Num label={t`Resolution SLA`}>{percent(w.resolution)}</Num>
            </tr>
          ))}
        </tbody>
      </Table>

      <Table caption={t`SLA by priority`}>
        <thead>
          <tr>
            <th scope="col">{t`Priority`}</th>
            <th scope="col" className="num">
              {t`Tickets`}
            </th>
            <th scope="col" className="num">
              {t`First response SLA`}
            </th>
            <th scope="col" className="num">
              {t`Resolution SLA`}
            </th>
          </tr>
        </thead>
        <tbody>
          {r.sla.byPriority.map((p) => (
            <tr key={p.priority}>
              <th scope="row" data-label={t`Priority`}>
                {priorityLabel(p.priority)}
              </th>
              <Num label={t`Tickets`}>{p.tickets}</Num>
              <Num label={t`First response SLA`}>{slaCell(p.firstResponse)}</Num>
              <Num label={t`Resolution SLA`}>{slaCell(p.resolution)}</Num>
            </tr>
          ))}
        </tbody>
      </Table>

      <div className="grid-2 grid support-reports-pair">
        <Table caption={t`By tag`} compact>
          <thead>
            <tr>
              <th scope="col">{t`Tag`}</th>
              <th scope="col" className="num">
                {t`Tickets`}
              </th>
            </tr>
          </thead>
          <tbody>
            {r.byTag.map((row) => (
              <tr key={row.tag ?? '\u0000untagged'}>
                <th scope="row" data-label={t`Tag`}>
                  {row.tag ?? <em>{t`Untagged`}</em>}
                </th>
                <Num label={t`Tickets`}>{row.tickets}</Num>
              </tr>
            ))}
          </tbody>
        </Table>
        <Table caption={t`Ratings`} compact>
          <thead>
            <tr>
              <th scope="col">{t`Stars`}</th>
              <th scope="col" className="num">
                {t`Tickets`}
              </th>
            </tr>
          </thead>
          <tbody>
            {[...r.ratings.stars].reverse().map((s) => (
              <tr key={s.stars}>
                <th scope="row" data-label={t`Stars`}>
                  {plural(s.stars, { one: '# star', other: '# stars' })}
                </th>
                <Num label={t`Tickets`}>{s.count}</Num>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>

      <Table caption={t`By assignee`}>
        <thead>
          <tr>
            <th scope="col">{t`Assignee`}</th>
            <th scope="col" className="num">
              {t`Tickets`}
            </th>
            <th scope="col" className="num">
              {t`Median first response`}
            </th>
            <th scope="col" className="num">
              {t`Resolved`}
            </th>
            <th scope="col" className="num">
              {t`Average rating`}
            </th>
          </tr>
        </thead>
        <tbody>
          {r.byAssignee.map((a) => (
            <tr key={a.assigneeId ?? 'unassigned'}>
              <th scope="row" data-label={t`Assignee`}>
                {a.assigneeId === null ? <em>{t`Unassigned`}</em> : (a.name ?? t`Former account`)}
              </th>
              <Num label={t`Tickets`}>{a.tickets}</Num>
              <Num label={t`Median first response`}>{formatMinutes(a.firstResponseMedianMinutes)}</Num>
              <Num label={t`Resolved`}>{a.resolved}</Num>
              <Num label={t`Average rating`}>{a.ratings === 0 ? '—' : `${rating(a.averageRating)} (${a.ratings})`}</Num>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="support-figure">
      <dt>{label}</dt>
      <dd>
        <span className="support-figure-value">{value}</span>
        {note && <span className="muted support-figure-note">{note}</span>}
      </dd>
    </div>
  );
}

/**
 * A table named by the heading above it (a caption would be squeezed when the rows turn into cards);
 * `compact` (two short columns) stays a table at any width instead of turning into cards.
 */
function Table({ caption, compact = false, children }: { caption: string; compact?: boolean; children: ReactNode }) {
  const id = useId();
  const table = (
    <table className="rtable" aria-labelledby={id}>
      {children}
    </table>
  );
  return (
    <div className="support-table">
      <h3 id={id}>{caption}</h3>
      {compact ? (
        table
      ) : (
        // Between the cards' width and the weekly table's full width (a tablet) the table scrolls in its
        // own box, which the keyboard can reach, rather than the page scrolling sideways.
        <div className="rtable-wrap support-table-scroll" role="region" aria-labelledby={id} tabIndex={0}>
          {table}
        </div>
      )}
    </div>
  );
}

function Num({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td className="num" data-label={label}>
      {children}
    </td>
  );
}

/**
 * Opened and resolved per week as paired bars in an inline SVG. Its title and description say the
 * totals and the busiest week in words; the weekly table under it holds every figure.
 */
export function WeeklyChart({ weeks }: { weeks: SupportReport['weeks'] }) {
  useLocale();
  const id = useId();
  const width = 640;
  const height = 160;
  const max = Math.max(1, ...weeks.flatMap((w) => [w.opened, w.resolved]));
  const slot = width / Math.max(weeks.length, 1);
  const bar = slot * 0.35;
  const opened = weeks.reduce((s, w) => s + w.opened, 0);
  const resolved = weeks.reduce((s, w) => s + w.resolved, 0);
  const busiest = weeks.reduce<SupportReport['weeks'][number] | null>((b, w) => (b === null || w.opened > b.opened ? w : b), null);
  const count = weeks.length;
  const first = weeks[0]?.isoWeek ?? '';
  const last = weeks.at(-1)?.isoWeek ?? '';
  const most = busiest?.opened ?? 0;
  const mostWeek = busiest?.isoWeek ?? '';
  // No placeholder inside a plural's branches: the pseudo-locale script keeps only one level of braces whole.
  const weeksText = plural(count, { one: '# week', other: '# weeks' });
  const description =
    count === 0
      ? t`No weeks in this range.`
      : most > 0
        ? t`${weeksText} from ${first} to ${last}: ${opened} opened and ${resolved} resolved in all; the most opened in one week was ${most}, in ${mostWeek}.`
        : t`${weeksText} from ${first} to ${last}: ${opened} opened and ${resolved} resolved in all.`;
  const firstStart = weeks[0]?.weekStart ?? '';
  const lastStart = weeks.at(-1)?.weekStart ?? '';
  return (
    <figure className="support-chart">
      <svg
        viewBox={`0 0 ${width} ${height + 2}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        preserveAspectRatio="none"
      >
        <title id={`${id}-title`}>{t`Tickets opened and resolved per week`}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {weeks.map((w, i) => {
          const ho = Math.round((w.opened / max) * height);
          const hr = Math.round((w.resolved / max) * height);
          const x = i * slot + slot * 0.13;
          return (
            <g key={w.weekStart}>
              <rect x={x} y={height - ho} width={bar} height={ho} className="support-chart-opened">
                <title>{t`${w.isoWeek}: ${w.opened} opened`}</title>
              </rect>
              <rect x={x + bar + slot * 0.04} y={height - hr} width={bar} height={hr} className="support-chart-resolved">
                <title>{t`${w.isoWeek}: ${w.resolved} resolved`}</title>
              </rect>
            </g>
          );
        })}
        <line x1="0" x2={width} y1={height + 1} y2={height + 1} className="support-chart-axis" />
      </svg>
      <figcaption className="cluster">
        <span>
          <span className="support-chart-key support-chart-opened" aria-hidden="true" /> {t`Opened`}
        </span>
        <span>
          <span className="support-chart-key support-chart-resolved" aria-hidden="true" /> {t`Resolved`}
        </span>
        <span className="muted">{t`per ISO week, ${firstStart} to ${lastStart} (Mondays); tallest bar ${max}`}</span>
      </figcaption>
    </figure>
  );
}
