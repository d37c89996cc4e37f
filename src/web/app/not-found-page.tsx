import { Link, useLocation } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';

/** Any path the app does not know (the server answers these with status 404). */
export default function NotFoundPage() {
  const { pathname } = useLocation();
  usePageMeta('Page not found', 'This page does not exist on Olympus.');

  return (
    <section className="page narrow" aria-labelledby="not-found-title">
      <p className="eyebrow">Error 404</p>
      <h1 id="not-found-title">Page not found</h1>
      <p className="lead">
        There is nothing at <code>{pathname}</code>. The link may be mistyped, or the page has moved.
      </p>
      <div className="actions">
        <Link className="btn btn-primary" to={paths.home}>
          Go to the home page
        </Link>
      </div>
    </section>
  );
}
