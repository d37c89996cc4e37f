import { t } from '@lingui/core/macro';
import { Suspense, useEffect, useLayoutEffect, useRef, type MouseEvent } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { useLocale } from '#web/features/language';
import { useNavigationPending } from '../app-router';
import { AppLoading } from '../app-loading';
import { RouteErrorBoundary } from '../route-error-boundary';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Move keyboard and screen-reader focus to the content without scrolling past the header. */
function focusMain() {
  document.getElementById('main')?.focus({ preventScroll: true });
}

export function RootLayout() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const loading = useNavigationPending();
  useLocale();

  // A new page starts at the top unless the link points into it; back and forward keep the browser's
  // own scroll restoration. (A small stand-in for the router's ScrollRestoration, which costs the home
  // page a kilobyte.) A layout effect, so it runs before any page effect that scrolls to a section.
  // Only a change of page scrolls: the page last scrolled for is remembered, so a change of hash or of
  // how the page was reached alone does nothing.
  const scrolledFor = useRef(pathname);
  useLayoutEffect(() => {
    if (scrolledFor.current === pathname) return;
    scrolledFor.current = pathname;
    if (navigationType !== 'POP' && !hash) window.scrollTo(0, 0);
  }, [pathname, navigationType, hash]);

  // After a client-side page change, start reading at the new content (as a full page load would),
  // instead of leaving focus on the link that was just activated.
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) {
      focused.current = true;
      return;
    }
    // A page may already have placed focus inside the content (e.g. on a linked section): keep it.
    const main = document.getElementById('main');
    if (main && document.activeElement !== document.body && main.contains(document.activeElement)) return;
    focusMain();
  }, [pathname]);

  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    // Not a hash navigation: the router would treat "#main" as a new location.
    event.preventDefault();
    const main = document.getElementById('main');
    main?.focus();
    main?.scrollIntoView();
  };

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main" onClick={skipToContent}>
        {t`Skip to main content`}
      </a>
      <SiteHeader />
      <div className="route-progress" data-active={loading} aria-hidden="true" />
      <main id="main" tabIndex={-1} aria-busy={loading || undefined}>
        {/* A page that crashes or whose chunk fails to load keeps the header and footer around it. */}
        <RouteErrorBoundary>
          <Suspense fallback={<AppLoading />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <SiteFooter />
    </div>
  );
}
