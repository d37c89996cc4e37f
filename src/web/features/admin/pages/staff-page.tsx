import { usePageMeta } from '#web/components/use-page-meta';
import { StaffConsole } from '../components/staff-console';
import { StaffTwoFactorGate } from '#web/features/two-factor';

/** /dashboard/staff/*: the operator console (support and admin). */
export default function StaffPage() {
  usePageMeta('Staff console');
  return (
    <section className="page dashboard-page" aria-labelledby="staff-title">
      <h1 id="staff-title">Staff console</h1>
      <StaffTwoFactorGate>
        <StaffConsole />
      </StaffTwoFactorGate>
    </section>
  );
}
