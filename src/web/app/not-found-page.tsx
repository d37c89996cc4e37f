import { t } from '@lingui/core/macro';
import { Link, useLocation } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { RichText, useLocale } from '#web/features/language';

/** Any path the app does not know (the server answers these with status 404). */
export default function NotFoundPage() {
  const { pathname } = useLocation();
  useLocale();
  usePageMeta(t`Page not found`, t`This page does not exist on Olympus.`);

  return (
    <section className="page narrow" aria-labelledby="not-found-title">
      <p className="eyebrow">{t`Error 404`}</p>
      <h1 id="not-found-title">{t`Page not found`}</h1>
      <p className="lead">
        <RichText
          message={t`There is nothing at <0>${pathname}</0>. The link may be mistyped, or the page has moved.`}
          elements={[<code />]}
        />
      </p>
      <div className="actions">
        <Link className="btn btn-primary" to={paths.home}>
          {t`Go to the home page`}
        </Link>
      </div>
    </section>
  );
}
