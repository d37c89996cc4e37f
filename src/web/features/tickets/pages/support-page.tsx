import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useSessionStore } from '#web/features/auth';
import { useLocale } from '#web/features/language';
import { SupportCenter } from '../components/support-center';

/** /dashboard/support: the requester's tickets, for guests and users alike (users see it beside the dashboard's navigation). */
export default function SupportPage() {
  useLocale();
  usePageMeta(t`Support`, t`Open a support ticket and follow the answers from our team.`);
  const isGuest = useSessionStore((s) => s.isGuest);
  return (
    <section className="page dashboard-page">
      {isGuest && (
        <Link className="btn btn-ghost btn-small" to={paths.dashboard}>
          {t`← Dashboard`}
        </Link>
      )}
      <SupportCenter />
    </section>
  );
}
