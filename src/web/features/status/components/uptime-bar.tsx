import { STATUS_HISTORY_DAYS, type StatusDay } from '#shared/schemas/status';
import { dayLevel, formatPercent, uptimeSummary } from './status-labels';

function describeDay(day: StatusDay): string {
  if (day.uptimePercent === null) return `${day.day}: No data`;
  const problems = [day.down > 0 ? `${day.down} failed checks` : '', day.degraded > 0 ? `${day.degraded} degraded checks` : ''].filter(
    Boolean,
  );
  return `${day.day}: ${formatPercent(day.uptimePercent)} uptime${problems.length ? ` (${problems.join(', ')})` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

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
  const outageDays = history.filter((d) => d.down > 0).length;
  const degradedDays = history.filter((d) => d.down === 0 && d.degraded > 0).length;
  const unmeasured = history.filter((d) => d.uptimePercent === null).length;
  const measured = uptimeSummary(uptimePercent, measuredDays);
  const summary = `${name}, last ${STATUS_HISTORY_DAYS} days: ${measured}${unmeasured > 0 ? `, ${plural(unmeasured, 'day')} with no data` : ''}; ${plural(outageDays, 'day')} with failed checks, ${plural(degradedDays, 'day')} degraded.`;
  return (
    <figure className="uptime">
      <div className="uptime-bar" role="img" aria-label={summary}>
        {history.map((day) => (
          <span key={day.day} className="uptime-day" data-level={dayLevel(day)} title={describeDay(day)} aria-hidden="true" />
        ))}
      </div>
      <figcaption className="uptime-legend" aria-hidden="true">
        <span>{STATUS_HISTORY_DAYS} days ago</span>
        <span className="uptime-measured" data-testid="uptime-summary">
          {measured}
          {unmeasured > 0 && (
            <>
              {' · '}
              <span className="uptime-no-data">
                <span className="uptime-day-key" data-level="none" /> No data
              </span>
            </>
          )}
        </span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}
