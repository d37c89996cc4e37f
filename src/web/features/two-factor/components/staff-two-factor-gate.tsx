import { t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { useLocale } from '#web/features/language';
import { Link } from 'react-router';
import { settingsPath } from '#shared/routes';
import { useStaffTwoFactorRequirement } from '../api/get-staff-two-factor-requirement';

/**
 * REQUIRE_STAFF_2FA=1: staff without two-factor see why the console is closed and where to set it up,
 * instead of every panel failing with 403. The server enforces it either way.
 */
export function StaffTwoFactorGate({ children }: { children: ReactNode }) {
  // Until the answer is in (or if it fails) the console shows: the server refuses its calls anyway.
  useLocale();
  const { data: blocked = false } = useStaffTwoFactorRequirement();

  if (!blocked) return <>{children}</>;
  return (
    <section className="admin-panel" aria-labelledby="staff-2fa-title">
      <h2 id="staff-2fa-title">{t`Set up two-factor sign-in first`}</h2>
      <p>{t`Staff accounts need two-factor sign-in (an authenticator app or a passkey) before they can use the staff console.`}</p>
      <Link className="btn btn-primary" to={settingsPath('security')}>
        {t`Go to settings`}
      </Link>
    </section>
  );
}
