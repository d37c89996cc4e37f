import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { StaffConsole } from '../components/staff-console';
import { StaffTwoFactorGate } from '#web/features/two-factor';
import { useLocale } from '#web/features/language';

/** /dashboard/staff/*: the operator console (support and admin). */
export default function StaffPage() {
  useLocale();
  usePageMeta(t`Staff console`);
  return (
    <section className="page dashboard-page" aria-labelledby="staff-title">
      <h1 id="staff-title">{t`Staff console`}</h1>
      <StaffTwoFactorGate>
        <StaffConsole />
      </StaffTwoFactorGate>
    </section>
  );
}
