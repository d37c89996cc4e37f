import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { WEBHOOK_EVENT_LABELS, type WebhookAttempt, type WebhookDelivery, type WebhookDeliveryEvent } from '#shared/schemas/webhooks';
import { QueryTable } from '#web/components/ui/query-table';
import { ApiError } from '#web/lib/api-client';
import { PENDING_REFRESH_MS, useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useReplayWebhookDelivery } from '../api/replay-webhook-delivery';

const PAGE_SIZE = 10;
export { PENDING_REFRESH_MS };

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function outcome(d: WebhookDelivery): string {
  if (d.status === 'succeeded') return 'Delivered';
  if (d.status === 'failed') return 'Failed';
  return d.attempts === 0 ? 'Queued' : 'Retrying';
}

const eventLabel = (event: string) => WEBHOOK_EVENT_LABELS[event as WebhookDeliveryEvent] ?? event;

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Every attempt of one delivery: when, what answered, how long it took and the start of the answer. */
function AttemptList({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attemptLog.length === 0) return <>{delivery.attempts}</>;
  return (
    <details className="webhook-attempts">
      <summary>
        {delivery.attempts} <span className="visually-hidden">attempts, show them</span>
      </summary>
      <ol>
        {delivery.attemptLog.map((a: WebhookAttempt) => (
          <li key={a.attempt} data-attempt={a.attempt}>
            <span className="webhook-attempt-head">
              <strong>#{a.attempt}</strong> {a.trigger === 'manual' ? 'Replay' : 'Automatic'} · {a.statusCode ?? 'no answer'} ·{' '}
              {formatDuration(a.durationMs)} · <time dateTime={a.attemptedAt}>{timeFormat.format(new Date(a.attemptedAt))}</time>
            </span>
            {a.error && <span className="webhook-error">{a.error}</span>}
            {a.responseExcerpt && <pre className="webhook-excerpt">{a.responseExcerpt}</pre>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Sends a delivery again now (same message, same webhook-id) and says how it went. */
function ReplayButton({ delivery }: { delivery: WebhookDelivery }) {
  const replay = useReplayWebhookDelivery();
  const run = async () => {
    try {
      const result = await replay.mutateAsync(delivery._id);
      if (result.status === 'succeeded' && result.lastError === null)
        toast.success(`Replayed: delivered (${result.statusCode ?? 'no status'})`);
      else toast.error(`Replay failed: ${result.lastError ?? 'no answer'}`);
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? err.message : 'Failed to replay the delivery');
    }
  };
  return (
    <button
      type="button"
      className="btn btn-secondary btn-small"
      disabled={replay.isPending}
      aria-busy={replay.isPending || undefined}
      aria-label={`Replay the ${eventLabel(delivery.event)} delivery`}
      onClick={() => void run()}
    >
      {replay.isPending ? 'Replaying…' : 'Replay'}
    </button>
  );
}

/** The user's deliveries, newest first: event, answer, attempts (each one listed), time, next retry and error, with Replay; paged. */
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
  const data = deliveries.data ?? null;
  // Try again shows the loading line, not the old error.
  const error = !data && deliveries.isError && !deliveries.isFetching ? deliveries.error : null;
  const pending = data?.deliveries.some((d) => d.status === 'pending') ?? false;

  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="webhook-log" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Recent deliveries</h3>
      <QueryTable
        query={{ data: deliveries.data, error, refetch: deliveries.refetch }}
        label="Recent deliveries"
        rows={(data) => data.deliveries}
        loading={<span className="muted">Loading deliveries…</span>}
        failed={() => 'Could not load the delivery log.'}
        empty="No deliveries yet. Save a URL and send a test to see one here."
        className="webhook-table rtable"
        wrapClassName="webhook-table-wrap rtable-wrap"
        scrollable
        summary={() => (
          <p className="visually-hidden" role="status">
            {pending ? 'Some deliveries are still in progress; this list updates by itself.' : ''}
          </p>
        )}
        columns={
          <>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Time</th>
            <th scope="col">Next retry</th>
            <th scope="col">Error</th>
            <th scope="col">Actions</th>
          </>
        }
        row={(d) => (
          <tr key={d._id} data-status={d.status}>
            <td data-label="Event">
              {eventLabel(d.event)}
              <br />
              <code className="webhook-event-name">{d.event}</code>
            </td>
            <td data-label="Status">
              <span className={`webhook-status webhook-status-${d.status}`}>
                {d.statusCode ?? '—'} · {outcome(d)}
              </span>
            </td>
            <td data-label="Attempts">
              <AttemptList delivery={d} />
            </td>
            <td data-label="Time">
              <time dateTime={d.lastAttemptAt ?? d.createdAt}>{timeFormat.format(new Date(d.lastAttemptAt ?? d.createdAt))}</time>
            </td>
            <td data-label="Next retry">
              {d.nextAttemptAt && d.attempts > 0 ? (
                <time dateTime={d.nextAttemptAt}>{timeFormat.format(new Date(d.nextAttemptAt))}</time>
              ) : (
                '—'
              )}
            </td>
            <td data-label="Error" className="webhook-error">
              {d.lastError ?? '—'}
            </td>
            <td data-label="Actions">{d.attempts > 0 && <ReplayButton delivery={d} />}</td>
          </tr>
        )}
      />
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
    </div>
  );
}
