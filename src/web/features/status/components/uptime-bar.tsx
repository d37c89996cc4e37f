import { plural, t } from '@lingui/core/macro';
import { STATUS_HISTORY_DAYS, type StatusDay } from '#shared/schemas/status';
import { useLocale } from '#web/features/language';
import { dayLevel, formatPercent, uptimeSummary } from './status-labels';

function describeDay(day: StatusDay): string {
  const date = day.day;
  if (day.uptimePercent === null) return t`${date}: No data`;
  const problems = [
    // The English has always said "1 failed checks"; the plural forms are for the other languages.
    day.down > 0 ? plural(day.down, { one: '# failed checks', other: '# failed checks' }) : '',
    day.degraded > 0 ? plural(day.degraded, { one: '# degraded checks', other: '# degraded checks' }) : '',
  ].filter(Boolean);
  const uptime = formatPercent(day.uptimePercent);
  if (problems.length === 0) return t`${date}: ${uptime} uptime`;
  const details = problems.join(', ');
  return t`${date}: ${uptime} uptime (${details})`;
}

/**
 * 90 days, oldest on the left. Days without checks are shown as "No data", never as up, and the uptime
 * figure says how many days it was measured over. Screen readers get one summary instead of 90 cells;
 * pointer users can hover a day for its figures.
 */
export function UptimeBar({
  name,
  history,
  uptimePercent,
  measuredDays,
}: {
  name: string;
  history: StatusDay[];
  uptimePercent: number | null;
  measuredDays: number;
}) {
  useLocale();
  const outageDays = history.filter((d) => d.down > 0).length;
  const degradedDays = history.filter((d) => d.down === 0 && d.degraded > 0).length;
  const unmeasured = history.filter((d) => d.uptimePercent === null).length;
  const measured = uptimeSummary(uptimePercent, measuredDays);
  const span = STATUS_HISTORY_DAYS;
  const noData = unmeasured > 0 ? `, ${plural(unmeasured, { one: '# day with no data', other: '# days with no data' })}` : '';
  const outages = plural(outageDays, { one: '# day with failed checks', other: '# days with failed checks' });
  const degraded = plural(degradedDays, { one: '# day degraded', other: '# days degraded' });
  const summary = t`${name}, last ${span} days: ${measured}${noData}; ${outages}, ${degraded}.`;
  return (
    <figure className="uptime">
      <div className="uptime-bar" role="img" aria-label={summary}>
        {history.map((day) => (
          <span key={day.day} className="uptime-day" data-level={dayLevel(day)} title={describeDay(day)} aria-hidden="true" />
        ))}
      </div>
      <figcaption className="uptime-legend" aria-hidden="true">
        <span>{t`${span} days ago`}</span>
        <span className="uptime-measured" data-testid="uptime-summary">
          {measured}
          {unmeasured > 0 && (
            <>
              {' · '}
              <span className="uptime-no-data">
                <span className="uptime-day-key" data-level="none" /> {t`No data`}
              </span>
            </>
          )}
        </span>
        <span>{t`Today`}</span>
      </figcaption>
    </figure>
  );
}
