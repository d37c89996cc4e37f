import { t } from '@lingui/core/macro';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ApiError } from '#web/lib/api-client';
import { useSessionStore } from '#web/features/auth';
import { useLocale } from '#web/features/language';
import { useExchange } from '../api/get-exchange';
import { ExchangeTracker } from '../components/exchange-tracker';
import '../exchange.css';

/**
 * /dashboard/exchanges/<id>: one exchange at its own address (docs/decisions/0317-an-exchange-has-an-address.md),
 * for a user or a guest: reloads, bookmarks, Back, and the links of notices, mails and chat messages.
 */
export default function ExchangePage() {
  useLocale();
  usePageMeta(t`Exchange`);
  const { exchangeId } = useParams();
  if (!exchangeId) return <Navigate to={paths.dashboard} replace />;
  return <OneExchange key={exchangeId} id={exchangeId} />;
}

function OneExchange({ id }: { id: string }) {
  useLocale();
  const navigate = useNavigate();
  // Guests have no exchange page of their own: their dashboard holds the form.
  const isGuest = useSessionStore((s) => s.isGuest);
  const query = useExchange(id);
  const error = query.isError
    ? query.error instanceof ApiError && query.error.status === 404
      ? t`We could not find this exchange in your account.`
      : t`Could not load this exchange. Try again in a moment.`
    : null;

  return (
    <section className="page narrow exchange-page" aria-labelledby="exchange-page-title">
      <nav aria-label={t`Breadcrumb`} className="breadcrumb">
        <Link to={paths.dashboard}>{t`Dashboard`}</Link> <span aria-hidden="true">/</span>{' '}
        {!isGuest && (
          <>
            <Link to={dashboardPaths.exchanges}>{t`Exchanges`}</Link> <span aria-hidden="true">/</span>{' '}
          </>
        )}
        <span aria-current="page">{t`Exchange`}</span>
      </nav>
      <h1 id="exchange-page-title">{t`Exchange`}</h1>
      {query.isPending && (
        <p role="status" className="muted">
          {t`Loading the exchange…`}
        </p>
      )}
      {error && (
        <div role="alert" className="card">
          <p className="form-error">{error}</p>
          {query.error instanceof ApiError && query.error.status === 404 ? (
            <Link to={paths.dashboard}>{t`Back to the dashboard`}</Link>
          ) : (
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void query.refetch()}>
              {t`Try again`}
            </button>
          )}
        </div>
      )}
      {query.data && (
        <div className="card">
          <ExchangeTracker
            exchange={query.data.exchange}
            onDone={() => void navigate(isGuest ? `${paths.dashboard}#exchange` : dashboardPaths.exchanges)}
          />
        </div>
      )}
    </section>
  );
}
