import { useId, useState } from 'react';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery, type WebhookDeliveryEvent } from '#shared/schemas/webhooks';
import { PENDING_REFRESH_MS, useWebhookDeliveries } from '../api/get-webhook-deliveries';

const PAGE_SIZE = 10;
export { PENDING_REFRESH_MS };

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function outcome(d: WebhookDelivery): string {
  if (d.status === 'succeeded') return 'Delivered';
  if (d.status === 'failed') return 'Failed';
  return d.attempts === 0 ? 'Queued' : 'Retrying';
}

/** The user's deliveries, newest first: event, answer, attempts, time and error; paged. */
export function DeliveryLog({ reloadKey }: { reloadKey: number }) {
  const id = useId();
  const [page, setPage] = useState(1);
  // A new test goes to the first page, where it shows up (the test's mutation refreshes the log).
  const [pageFor, setPageFor] = useState(reloadKey);
  if (pageFor !== reloadKey) {
    setPageFor(reloadKey);
    setPage(1);
  }

  // Refreshes itself while something is pending; a failed refresh keeps what is on screen, and only a
  // first load shows the error.
  const deliveries = useWebhookDeliveries(page, PAGE_SIZE);
  const load = deliveries.data
    ? ({ state: 'ready', data: deliveries.data } as const)
    : deliveries.isError && !deliveries.isFetching
      ? ({ state: 'error' } as const)
      : ({ state: 'loading' } as const);
  const pending = load.state === 'ready' && load.data.deliveries.some((d) => d.status === 'pending');

  const data = load.state === 'ready' ? load.data : null;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="webhook-log" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Recent deliveries</h3>
      {load.state === 'loading' && (
        <p role="status" className="muted">
          Loading deliveries…
        </p>
      )}
      {load.state === 'error' && (
        <div role="alert">
          <p>Could not load the delivery log.</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void deliveries.refetch()}>
            Try again
          </button>
        </div>
      )}
      {data && data.total === 0 && <p className="muted">No deliveries yet. Save a URL and send a test to see one here.</p>}
      {data && data.total > 0 && (
        <>
          <p className="visually-hidden" role="status">
            {pending ? 'Some deliveries are still in progress; this list updates by itself.' : ''}
          </p>
          {/* Focusable so keyboard users can scroll the table sideways on a phone. */}
          <div className="webhook-table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
            <table className="webhook-table">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Time</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.deliveries.map((d) => (
                  <tr key={d._id} data-status={d.status}>
                    <td>
                      {WEBHOOK_EVENT_LABELS[d.event as WebhookDeliveryEvent] ?? d.event}
                      <br />
                      <code className="webhook-event-name">{d.event}</code>
                    </td>
                    <td>
                      <span className={`webhook-status webhook-status-${d.status}`}>
                        {d.statusCode ?? '—'} · {outcome(d)}
                      </span>
                    </td>
                    <td>{d.attempts}</td>
                    <td>
                      <time dateTime={d.lastAttemptAt ?? d.createdAt}>{timeFormat.format(new Date(d.lastAttemptAt ?? d.createdAt))}</time>
                    </td>
                    <td className="webhook-error">{d.lastError ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {lastPage > 1 && (
            <nav className="webhook-pages" aria-label="Delivery log pages">
              <button type="button" className="btn btn-ghost btn-small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer
              </button>
              <span className="muted">
                Page {page} of {lastPage}
              </span>
              <button type="button" className="btn btn-ghost btn-small" disabled={page >= lastPage} onClick={() => setPage((p) => p + 1)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
