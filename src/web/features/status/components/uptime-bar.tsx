import { STATUS_HISTORY_DAYS, type StatusDay } from '#shared/schemas/status';
import { dayLevel, formatPercent } from './status-labels';

function describeDay(day: StatusDay): string {
  if (day.uptimePercent === null) return `${day.day}: no data`;
  const problems = [day.down > 0 ? `${day.down} failed checks` : '', day.degraded > 0 ? `${day.degraded} degraded checks` : ''].filter(Boolean);
  return `${day.day}: ${formatPercent(day.uptimePercent)} uptime${problems.length ? ` (${problems.join(', ')})` : ''}`;
}

/**
 * 90 days, oldest on the left. Screen readers get one summary instead of 90 cells; pointer users can
 * hover a day for its figures.
 */
export function UptimeBar({ name, history, uptimePercent }: { name: string; history: StatusDay[]; uptimePercent: number | null }) {
  const outageDays = history.filter((d) => d.down > 0).length;
  const degradedDays = history.filter((d) => d.down === 0 && d.degraded > 0).length;
  const summary = `${name}, last ${STATUS_HISTORY_DAYS} days: ${formatPercent(uptimePercent)} uptime; ${outageDays} ${outageDays === 1 ? 'day' : 'days'} with failed checks, ${degradedDays} ${degradedDays === 1 ? 'day' : 'days'} degraded.`;
  return (
    <figure className="uptime">
      <div className="uptime-bar" role="img" aria-label={summary}>
        {history.map((day) => (
          <span key={day.day} className="uptime-day" data-level={dayLevel(day)} title={describeDay(day)} aria-hidden="true" />
        ))}
      </div>
      <figcaption className="uptime-legend" aria-hidden="true">
        <span>{STATUS_HISTORY_DAYS} days ago</span>
        <span>{formatPercent(uptimePercent)} uptime</span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}
