import { plural, t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import type { Notification } from '#shared/schemas/notifications';
import { useDismissable } from '#web/components/use-dismissable';
import { useSessionStore } from '#web/features/auth';
import { useLiveChannel } from '#web/lib/live-channel';
import { useLatestNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { NotificationItem } from './notification-item';
import { useLocale } from '#web/features/language';
import './notifications.css';

/**
 * The bell in the header of every page while a session (an account or a guest) is open: the unread
 * count, kept live by the app's live channel (polling while it is down), and a panel with the newest
 * notices, "Mark all read" and a link to the notifications page. A disclosure like the account menu:
 * Escape, a click outside, focus leaving it and a change of page close it.
 */
export function NotificationBell() {
  useLocale();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const hasSession = isAuthenticated || isGuest;
  // Whose news the live channel carries: the user, or `g` and the guest id. The bell holds the channel
  // for the whole app, as it is on every page with a session.
  const owner = useSessionStore((s) => (s.isAuthenticated && s.userId ? s.userId : s.isGuest && s.guestId ? `g${s.guestId}` : null));
  const live = useLiveChannel(owner);
  const latest = useLatestNotifications(hasSession, !live);
  const markRead = useMarkNotificationsRead();
  const { open, close, panelId, rootProps, buttonProps } = useDismissable();

  if (!hasSession) return null;
  const count = latest.data?.unreadCount ?? 0;
  const label = count === 0 ? t`Notifications` : plural(count, { one: 'Notifications, # unread', other: 'Notifications, # unread' });
  const openOne = (n: Notification) => {
    close();
    if (n.readAt === null) markRead.mutate({ ids: [n.id] });
  };

  return (
    <div className="notification-bell" {...rootProps}>
      <button className="notification-bell-button" {...buttonProps} aria-label={label} data-testid="notification-bell">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {count > 0 && (
          <span className="notification-badge" aria-hidden="true" data-testid="notification-count">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {/* The count is announced politely when it changes, without moving focus. */}
      <span className="visually-hidden" aria-live="polite">
        {count > 0 ? plural(count, { one: '# unread notifications', other: '# unread notifications' }) : ''}
      </span>
      <div id={panelId} className="notification-panel" hidden={!open} role="region" aria-label={t`Notifications`}>
        <div className="notification-panel-head">
          <h2>{t`Notifications`}</h2>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            disabled={count === 0 || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
          >
            {t`Mark all read`}
          </button>
        </div>
        {latest.isError && !latest.data ? (
          <p className="field-error" role="alert">
            {t`Could not load your notifications.`}{' '}
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void latest.refetch()}>
              {t`Try again`}
            </button>
          </p>
        ) : !latest.data ? (
          <p className="muted" aria-busy="true">
            {t`Loading…`}
          </p>
        ) : latest.data.notifications.length === 0 ? (
          <p className="muted">{t`Nothing yet. Payments, exchanges, support replies and orders show up here.`}</p>
        ) : (
          <ul className="notification-list">
            {latest.data.notifications.map((n) => (
              <NotificationItem key={n.id} notification={n} onOpen={openOne} />
            ))}
          </ul>
        )}
        <p className="notification-panel-foot">
          <Link to={paths.notifications} onClick={close}>
            {t`See all notifications`}
          </Link>
        </p>
      </div>
    </div>
  );
}

export default NotificationBell;
