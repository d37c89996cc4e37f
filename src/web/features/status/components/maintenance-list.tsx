import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { Maintenance } from '#shared/schemas/status';
import { useLocale } from '#web/features/language';
import { formatDateTime } from './status-labels';

const STATE_LABEL: Record<Maintenance['state'], MessageDescriptor> = {
  scheduled: msg`Scheduled`,
  in_progress: msg`In progress`,
  completed: msg`Completed`,
};

function MaintenanceCard({ item }: { item: Maintenance }) {
  const headingId = `maintenance-${item._id}`;
  return (
    <article className="card incident maintenance" data-state={item.state} aria-labelledby={headingId}>
      <header className="incident-header">
        <h3 id={headingId}>{item.title}</h3>
        <p className="incident-meta">
          <span className="incident-badge" data-status={item.state}>
            {i18n._(STATE_LABEL[item.state])}
          </span>
          <span>
            <time dateTime={item.startsAt}>{formatDateTime(item.startsAt)}</time> –{' '}
            <time dateTime={item.endsAt}>{formatDateTime(item.endsAt)}</time>
          </span>
        </p>
      </header>
      <p className="maintenance-description">{item.description}</p>
    </article>
  );
}

/** Maintenance under way first, then what is scheduled; completed windows are left to the feed. */
export function MaintenanceList({ maintenance }: { maintenance: Maintenance[] }) {
  useLocale();
  const current = maintenance.filter((m) => m.state === 'in_progress');
  const upcoming = maintenance.filter((m) => m.state === 'scheduled');
  if (current.length === 0 && upcoming.length === 0) return null;
  return (
    <>
      {current.length > 0 && (
        <section className="section" aria-labelledby="maintenance-now-title">
          <h2 id="maintenance-now-title">{t`Maintenance in progress`}</h2>
          <div className="incident-list">
            {current.map((m) => (
              <MaintenanceCard key={m._id} item={m} />
            ))}
          </div>
        </section>
      )}
      {upcoming.length > 0 && (
        <section className="section" aria-labelledby="maintenance-title">
          <h2 id="maintenance-title">{t`Scheduled maintenance`}</h2>
          <div className="incident-list">
            {upcoming.map((m) => (
              <MaintenanceCard key={m._id} item={m} />
            ))}
          </div>
        </section>
      )}
    </>
  );
}
