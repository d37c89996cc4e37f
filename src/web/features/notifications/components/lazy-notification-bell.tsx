import { Suspense } from 'react';
import { lazyWithServerState } from '#web/components/lazy-with-server-state';
import { useAfterFirstRender } from '#web/components/use-after-first-render';
import { useSessionStore } from '#web/features/auth';

// The bell reads server state: it loads with the query library in its own chunk, after the page's
// first render, so the home page's first load does not carry it (docs/decisions/0093).
const NotificationBell = lazyWithServerState(() => import('./notification-bell'));

/** The header's bell while a session is open; a same-sized placeholder while its chunk loads. */
export function LazyNotificationBell() {
  const ready = useAfterFirstRender();
  const hasSession = useSessionStore((s) => s.isAuthenticated || s.isGuest);
  if (!hasSession || !ready) return null;
  return (
    <Suspense fallback={<span className="notification-bell-placeholder" aria-hidden="true" />}>
      <NotificationBell />
    </Suspense>
  );
}
