import { Link } from 'react-router';
import type { Notification } from '#shared/schemas/notifications';
import { formatDateTime } from '#web/lib/format';

/**
 * One notice: its title links to the thing it concerns (following it marks it read); unread ones are
 * marked in text as well as by their look, so a screen reader hears it too.
 */
export function NotificationItem({
  notification,
  onOpen,
  onMarkRead,
}: {
  notification: Notification;
  onOpen: (n: Notification) => void;
  onMarkRead?: (n: Notification) => void;
}) {
  const unread = notification.readAt === null;
  return (
    <li className="notification-item" data-unread={unread}>
      <div className="notification-item-text">
        <Link to={notification.link} className="notification-item-title" onClick={() => onOpen(notification)}>
          {unread && <span className="visually-hidden">Unread: </span>}
          {notification.title}
        </Link>
        <p className="notification-item-body">{notification.body}</p>
        <p className="notification-item-when muted">
          <time dateTime={notification.createdAt}>{formatDateTime(notification.createdAt)}</time>
        </p>
      </div>
      {unread && onMarkRead && (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onMarkRead(notification)}>
          Mark read<span className="visually-hidden">: {notification.title}</span>
        </button>
      )}
    </li>
  );
}
