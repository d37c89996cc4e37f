import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import type { Notification } from '#shared/schemas/notifications';
import { formatLocaleDateTime, formatRelativeTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';

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
  useLocale();
  const unread = notification.readAt === null;
  return (
    <li className="notification-item" data-unread={unread}>
      <div className="notification-item-text">
        <Link to={notification.link} className="notification-item-title" onClick={() => onOpen(notification)}>
          {unread && <span className="visually-hidden">{t`Unread:`} </span>}
          {notification.title}
        </Link>
        <p className="notification-item-body">{notification.body}</p>
        <p className="notification-item-when muted">
          <time dateTime={notification.createdAt} title={formatLocaleDateTime(notification.createdAt)}>
            {formatRelativeTime(notification.createdAt)}
          </time>
        </p>
      </div>
      {unread && onMarkRead && (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onMarkRead(notification)}>
          <RichText message={t`Mark read<0>: ${notification.title}</0>`} elements={[<span className="visually-hidden" />]} />
        </button>
      )}
    </li>
  );
}
