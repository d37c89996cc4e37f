import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '#shared/routes';
import { lazyWithServerState } from '#web/components/lazy-with-server-state';
import { LanguageSwitch, useLocale } from '#web/features/language';
import { LazyNotificationBell } from '#web/features/notifications';
import { LogoMark } from './logo';
import { MAIN_NAV } from './nav-items';
import { ThemeToggle } from './theme-toggle';
import { useFoldWhenCrowded } from './use-fold-when-crowded';
import { useAccountNav } from './use-account-nav';

// The account menu shows the signed-in user, which is server state: it loads with the query library,
// and only for a signed-in user, so a visitor's home page does not carry either (docs/decisions/0245).
const AccountMenu = lazyWithServerState<object>(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));

/**
 * Site header. When its links and controls do not fit on one line (a phone, a narrow window, a longer
 * language) the navigation folds behind a Menu button (aria-expanded says whether it is open); it closes
 * on Escape, on following a link and on any route change.
 */
export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const folded = useFoldWhenCrowded(headerRef, barRef);
  const navId = useId();
  const { pathname } = useLocation();
  const account = useAccountNav();
  useLocale();

  // Close the phone menu whenever the page changes (also covers back/forward).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header ref={headerRef} className="site-header" data-folded={folded}>
      <div ref={barRef} className="container header-inner">
        <Link to={paths.home} className="brand" onClick={close}>
          <LogoMark />
          <span>Olympus</span>
        </Link>

        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-icon" aria-hidden="true" data-open={menuOpen} />
          {t`Menu`}
        </button>

        <nav id={navId} className="site-nav" aria-label={t`Main`} data-open={menuOpen}>
          <ul className="nav-list">
            {MAIN_NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === paths.home} className="nav-link" onClick={close}>
                  {i18n._(item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
          {/* While a stored session is being checked the list stays empty (but keeps its width), so a
              signed-in visitor never sees Login flash before Dashboard. */}
          <ul className="nav-account" aria-label={t`Account`} data-state={account.kind}>
            {account.kind === 'signed-in' && (
              <li>
                <NavLink to={paths.dashboard} className="btn btn-primary btn-small" onClick={close}>
                  {t`Dashboard`}
                </NavLink>
              </li>
            )}
            {account.kind === 'signed-out' && (
              <>
                <li>
                  <NavLink to={paths.login} className="btn btn-ghost btn-small" onClick={close}>
                    {t`Login`}
                  </NavLink>
                </li>
                <li>
                  <NavLink to={paths.register} className="btn btn-primary btn-small" onClick={close}>
                    {t`Register`}
                  </NavLink>
                </li>
              </>
            )}
          </ul>
          {/* In the bar on a wide screen, rows of the folded menu on a phone (decisions 0240, 0326). */}
          <LanguageSwitch compact />
          <ThemeToggle />
        </nav>
        <LazyNotificationBell />
        {account.kind === 'signed-in' && (
          <Suspense fallback={null}>
            <AccountMenu />
          </Suspense>
        )}
      </div>
    </header>
  );
}
