/** The notifications feature as other features see it: the header's bell and the settings panel. */
export { LazyNotificationBell } from './components/lazy-notification-bell';
export { NotificationPreferencesPanel } from './components/notification-preferences-panel';
