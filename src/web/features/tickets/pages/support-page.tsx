import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { SupportCenter } from '../components/support-center';

/** /dashboard/support: the requester's tickets, for guests and users alike. */
export default function SupportPage() {
  usePageMeta('Support', 'Open a support ticket and follow the answers from our team.');
  return (
    <section className="page dashboard-page">
      <Link className="btn btn-ghost btn-small" to={paths.dashboard}>
        ← Dashboard
      </Link>
      <SupportCenter />
    </section>
  );
}
