import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { useCatalogue } from '../api/get-catalogue';
import { CatalogueList } from './catalogue-list';
import '../catalogue.css';

/** The catalogue for guests: what credits buy, and an invitation to sign up to buy it. */
export function GuestCatalogue() {
  const ids = useId();
  const catalogue = useCatalogue();
  return (
    <section className="card catalogue-section" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Use your credits</h2>
      <p className="muted">Credits buy these. Create a free account to top up and buy.</p>
      <QueryState
        data={catalogue.data?.items}
        loading="Loading the catalogue…"
        error={catalogue.isError ? errorMessage(catalogue.error, 'Could not load the catalogue') : null}
        isEmpty={(items) => items.length === 0}
        empty="Nothing to buy yet. Check back soon."
      >
        {(items) => (
          <CatalogueList
            items={items}
            action={(item) => (
              <Link className="btn btn-secondary btn-small" to={paths.register}>
                Sign up to buy <span className="visually-hidden">{item.name}</span>
              </Link>
            )}
          />
        )}
      </QueryState>
    </section>
  );
}
