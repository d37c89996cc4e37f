import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryEvent } from '#shared/schemas/webhooks';
import { QueryTable } from '#web/components/ui/query-table';
import { useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime, formatLocaleNumber } from '#web/lib/format';
import { PENDING_REFRESH_MS, useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useReplayWebhookDelivery } from '../api/replay-webhook-delivery';

const PAGE_SIZE = 10;
export { PENDING_REFRESH_MS };

/** A moment with seconds, in the page's language: attempts can be seconds apart. */
const formatTime = (at: string) => formatLocaleDateTime(at, undefined, { seconds: true });

function outcome(d: WebhookDelivery): string {
  if (d.status === 'succeeded') return t`Delivered`;
  if (d.status === 'failed') return t`Failed`;
  return d.attempts === 0 ? t`Queued` : t`Retrying`;
}

/** The events' names as people read them (src/shared/schemas/webhooks.ts words them in English). */
const EVENT_LABELS: Record<WebhookDeliveryEvent, MessageDescriptor> = {
  'payment.finished': msg`Payment finished`,
  'credits.changed': msg`Credits changed`,
  'ticket.answered': msg`Ticket answered`,
  'exchange.finished': msg`Exchange finished`,
  'order.paid': msg`Order paid`,
  'order.fulfilled': msg`Order fulfilled`,
  'order.refunded': msg`Order refunded`,
  'webhook.test': msg`Test`,
};

export const eventLabel = (event: string) => {
  const label = EVENT_LABELS[event as WebhookDeliveryEvent] as MessageDescriptor | undefined;
  return label ? i18n._(label) : event;
};

function formatDuration(ms: number): string {
  return ms < 1000 ? `${formatLocaleNumber(ms, 0)} ms` : `${formatLocaleNumber(ms / 1000, 1)} s`;
}

/** Every attempt of one delivery: when, what answered, how long it took and the start of the answer. */
function AttemptList({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attemptLog.length === 0) return <>{delivery.attempts}</>;
  return (
    <details className="webhook-attempts">
      <summary>
        {delivery.attempts} <span className="visually-hidden">{t`attempts, show them`}</span>
      </summary>
      <ol>
        {delivery.attemptLog.map((a: WebhookAttempt) => (
          <li key={a.attempt} data-attempt={a.attempt}>
            <span className="webhook-attempt-head">
              <strong>#{a.attempt}</strong> {a.trigger === 'manual' ? t`Replay` : t`Automatic`} · {a.statusCode ?? t`no answer`} ·{' '}
              {formatDuration(a.durationMs)} · <time dateTime={a.attemptedAt}>{formatTime(a.attemptedAt)}</time>
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
  useLocale();
  const replay = useReplayWebhookDelivery();
  const run = async () => {
    try {
      const result = await replay.mutateAsync(delivery._id);
      if (result.status === 'succeeded' && result.lastError === null) {
        const status = result.statusCode ?? t`no status`;
        toast.success(t`Replayed: delivered (${status})`);
      } else {
        const reason = result.lastError ?? t`no answer`;
        toast.error(t`Replay failed: ${reason}`);
      }
    } catch (err) {
      toast.error(err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Failed to replay the delivery`);
    }
  };
  const event = eventLabel(delivery.event);
  return (
    <button
      type="button"
      className="btn btn-secondary btn-small"
      disabled={replay.isPending}
      aria-busy={replay.isPending || undefined}
      aria-label={t`Replay the ${event} delivery`}
      onClick={() => void run()}
    >
      {replay.isPending ? t`Replaying…` : t`Replay`}
    </button>
  );
}

/** The user's deliveries, newest first: event, answer, attempts (each one listed), time, next retry and error, with Replay; paged. */
export function DeliveryLog({ reloadKey }: { reloadKey: number }) {
  const id = useId();
  useLocale();
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

  const labels = {
    event: t`Event`,
    status: t`Status`,
    attempts: t`Attempts`,
    time: t`Time`,
    nextRetry: t`Next retry`,
    error: t`Error`,
    actions: t`Actions`,
  };
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="webhook-log" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`Recent deliveries`}</h3>
      <QueryTable
        query={{ data: deliveries.data, error, refetch: deliveries.refetch }}
        label={t`Recent deliveries`}
        rows={(data) => data.deliveries}
        loading={<span className="muted">{t`Loading deliveries…`}</span>}
        failed={() => t`Could not load the delivery log.`}
        empty={t`No deliveries yet. Save a URL and send a test to see one here.`}
        className="webhook-table rtable"
        wrapClassName="webhook-table-wrap rtable-wrap"
        scrollable
        summary={() => (
          <p className="visually-hidden" role="status">
            {pending ? t`Some deliveries are still in progress; this list updates by itself.` : ''}
          </p>
        )}
        columns={
          <>
            <th scope="col">{labels.event}</th>
            <th scope="col">{labels.status}</th>
            <th scope="col">{labels.attempts}</th>
            <th scope="col">{labels.time}</th>
            <th scope="col">{labels.nextRetry}</th>
            <th scope="col">{labels.error}</th>
            <th scope="col">{labels.actions}</th>
          </>
        }
        row={(d) => (
          <tr key={d._id} data-status={d.status}>
            <td data-label={labels.event}>
              {eventLabel(d.event)}
              <br />
              <code className="webhook-event-name">{d.event}</code>
            </td>
            <td data-label={labels.status}>
              <span className={`webhook-status webhook-status-${d.status}`}>
                {d.statusCode ?? '—'} · {outcome(d)}
              </span>
            </td>
            <td data-label={labels.attempts}>
              <AttemptList delivery={d} />
            </td>
            <td data-label={labels.time}>
              <time dateTime={d.lastAttemptAt ?? d.createdAt}>{formatTime(d.lastAttemptAt ?? d.createdAt)}</time>
            </td>
            <td data-label={labels.nextRetry}>
              {d.nextAttemptAt && d.attempts > 0 ? <time dateTime={d.nextAttemptAt}>{formatTime(d.nextAttemptAt)}</time> : '—'}
            </td>
            <td data-label={labels.error} className="webhook-error">
              {d.lastError ?? '—'}
            </td>
            <td data-label={labels.actions}>{d.attempts > 0 && <ReplayButton delivery={d} />}</td>
          </tr>
        )}
      />
      {lastPage > 1 && (
        <nav className="webhook-pages" aria-label={t`Delivery log pages`}>
          <button type="button" className="btn btn-ghost btn-small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t`Newer`}
          </button>
          <span className="muted">{t`Page ${page} of ${lastPage}`}</span>
          <button type="button" className="btn btn-ghost btn-small" disabled={page >= lastPage} onClick={() => setPage((p) => p + 1)}>
            {t`Older`}
          </button>
        </nav>
      )}
    </div>
  );
}
