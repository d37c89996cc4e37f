import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { isGuestUser } from '#web/features/auth';
import { useLogout } from '#web/features/auth/mutations';
import { useSessionUser } from '#web/features/auth/user';
import { useDismissable } from '#web/components/use-dismissable';
import { useLocale } from '#web/features/language';

/**
 * The account menu of the site header, on every page while a user is signed in (docs/decisions/0238): who
 * is signed in, Dashboard, Settings, Support (and the staff console for staff), and Sign out. A
 * disclosure (useDismissable): Escape, a click outside, focus leaving it, following a link and any change
 * of page close it.
 * It reads the user from the query cache, so the header loads it lazily (./site-header.tsx).
 */
export function AccountMenu() {
  const user = useSessionUser();
  useLocale();
  const logout = useLogout();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { open, close, panelId, rootProps, buttonProps } = useDismissable();

  if (!user || isGuestUser(user)) return null;
  const staff = user.role === 'support' || user.role === 'admin';

  const signOut = async () => {
    setError(null);
    const ok = await logout.mutateAsync();
    if (ok) navigate(paths.login, { replace: true });
    else setError(t`Could not sign out. Check your connection and try again.`);
  };

  return (
    <div className="account-menu" {...rootProps}>
      <button className="account-menu-button" {...buttonProps}>
        <span className="account-avatar" aria-hidden="true">
          {user.username.slice(0, 1).toUpperCase()}
        </span>
        <span className="account-menu-label">{t`Account`}</span>
      </button>
      <div id={panelId} className="account-menu-panel" hidden={!open}>
        <p className="account-menu-who">
          {t`Signed in as`} <strong title={user.username}>{user.username}</strong>
        </p>
        <ul className="account-menu-list" aria-label={t`Your account`}>
          <li>
            <NavLink to={paths.dashboard} end onClick={close}>
              {t`Dashboard`}
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.settings} onClick={close}>
              {t`Settings`}
            </NavLink>
          </li>
          <li>
            <NavLink to={`${paths.dashboard}/support`} onClick={close}>
              {t`Support`}
            </NavLink>
          </li>
          {staff && (
            <li>
              <NavLink to={`${paths.dashboard}/staff`} onClick={close}>
                {t`Staff console`}
              </NavLink>
            </li>
          )}
          <li>
            <button type="button" onClick={() => void signOut()} disabled={logout.isPending} aria-busy={logout.isPending || undefined}>
              {logout.isPending ? t`Signing out…` : t`Sign out`}
            </button>
          </li>
        </ul>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
