import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths, settingsPath } from '#shared/routes';
import type { Notification } from '#shared/schemas/notifications';
import { QueryState } from '#web/components/ui/query-state';
import { usePageMeta } from '#web/components/use-page-meta';
import { useSessionStore } from '#web/features/auth';
import { errorMessage } from '#web/lib/api-client';
import { useNotificationPages } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { NotificationItem } from '../components/notification-item';
import { RichText, useLocale } from '#web/features/language';
import '../components/notifications.css';

/** /notifications: every notice of the last 90 days, newest first, page after page; mark one or all read. */
export default function NotificationsPage() {
  useLocale();
  usePageMeta(t`Notifications`, t`Your payments, exchanges, support replies and orders as they happen.`);
  const isGuest = useSessionStore((s) => s.isGuest);
  const pages = useNotificationPages();
  const markRead = useMarkNotificationsRead();
  const data = pages.data
    ? { items: pages.data.pages.flatMap((p) => p.notifications), unread: pages.data.pages[0]?.unreadCount ?? 0 }
    : undefined;
  const mark = (n: Notification) => markRead.mutate({ ids: [n.id] });

  return (
    <section className="page dashboard-page notifications-page" aria-labelledby="notifications-title">
      <nav aria-label={t`Breadcrumb`} className="breadcrumb">
        <Link to={paths.dashboard}>{t`Dashboard`}</Link> <span aria-hidden="true">/</span>{' '}
        <span aria-current="page">{t`Notifications`}</span>
      </nav>
      <div className="notifications-page-head">
        <h1 id="notifications-title">{t`Notifications`}</h1>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={!data || data.unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          {t`Mark all read`}
        </button>
      </div>
      <p className="muted">
        {t`Kept for 90 days.`}{' '}
        {!isGuest && (
          <RichText
            message={t`Choose what reaches you, and where, in <0>settings</0>.`}
            elements={[<Link to={settingsPath('notifications')} />]}
          />
        )}
      </p>
      <QueryState
        data={data}
        loading={t`Loading your notifications…`}
        isEmpty={(d) => d.items.length === 0}
        empty={<p className="muted">{t`No notifications yet. Payments, exchanges, support replies and orders show up here.`}</p>}
        error={pages.isError ? errorMessage(pages.error, t`Could not load your notifications.`) : null}
        onRetry={() => void pages.refetch()}
      >
        {(d) => (
          <div className="card">
            <ul className="notification-list">
              {d.items.map((n) => (
                <NotificationItem key={n.id} notification={n} onOpen={(x) => x.readAt === null && mark(x)} onMarkRead={mark} />
              ))}
            </ul>
            {pages.hasNextPage && (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={pages.isFetchingNextPage}
                onClick={() => void pages.fetchNextPage()}
              >
                {pages.isFetchingNextPage ? t`Loading…` : t`Show older`}
              </button>
            )}
          </div>
        )}
      </QueryState>
      {markRead.isError && (
        <p className="field-error" role="alert">
          {errorMessage(markRead.error, t`Could not mark as read. Try again.`)}
        </p>
      )}
    </section>
  );
}
