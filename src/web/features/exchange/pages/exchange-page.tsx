import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ApiError } from '#web/lib/api-client';
import { useSessionStore } from '#web/features/auth';
import { useExchange } from '../api/get-exchange';
import { ExchangeTracker } from '../components/exchange-tracker';
import '../exchange.css';

/**
 * /dashboard/exchanges/<id>: one exchange at its own address (docs/decisions/0317-an-exchange-has-an-address.md),
 * for a user or a guest: reloads, bookmarks, Back, and the links of notices, mails and chat messages.
 */
export default function ExchangePage() {
  usePageMeta('Exchange');
  const { exchangeId } = useParams();
  if (!exchangeId) return <Navigate to={paths.dashboard} replace />;
  return <OneExchange key={exchangeId} id={exchangeId} />;
}

function OneExchange({ id }: { id: string }) {
  const navigate = useNavigate();
  // Guests have no exchange page of their own: their dashboard holds the form.
  const isGuest = useSessionStore((s) => s.isGuest);
  const query = useExchange(id);
  const error = query.isError
    ? query.error instanceof ApiError && query.error.status === 404
      ? 'We could not find this exchange in your account.'
      : 'Could not load this exchange. Try again in a moment.'
    : null;

  return (
    <section className="page narrow exchange-page" aria-labelledby="exchange-page-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.dashboard}>Dashboard</Link> <span aria-hidden="true">/</span>{' '}
        {!isGuest && (
          <>
            <Link to={dashboardPaths.exchanges}>Exchanges</Link> <span aria-hidden="true">/</span>{' '}
          </>
        )}
        <span aria-current="page">Exchange</span>
      </nav>
      <h1 id="exchange-page-title">Exchange</h1>
      {query.isPending && (
        <p role="status" className="muted">
          Loading the exchange…
        </p>
      )}
      {error && (
        <div role="alert" className="card">
          <p className="form-error">{error}</p>
          {query.error instanceof ApiError && query.error.status === 404 ? (
            <Link to={paths.dashboard}>Back to the dashboard</Link>
          ) : (
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void query.refetch()}>
              Try again
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
