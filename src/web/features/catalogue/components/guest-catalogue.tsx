import { t } from '@lingui/core/macro';
import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { useCatalogue } from '../api/get-catalogue';
import { CatalogueList } from './catalogue-list';
import { useLocale } from '#web/features/language';
import '../catalogue.css';

/** The catalogue for guests: what credits buy, and an invitation to sign up to buy it. */
export function GuestCatalogue() {
  const ids = useId();
  useLocale();
  const catalogue = useCatalogue();
  return (
    <section className="card catalogue-section" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Use your credits`}</h2>
      <p className="muted">{t`Credits buy these. Create a free account to top up and buy.`}</p>
      <QueryState
        data={catalogue.data?.items}
        loading={t`Loading the catalogue…`}
        error={catalogue.isError ? errorMessage(catalogue.error, t`Could not load the catalogue`) : null}
        isEmpty={(items) => items.length === 0}
        empty={t`Nothing to buy yet. Check back soon.`}
      >
        {(items) => (
          <CatalogueList
            items={items}
            action={(item) => (
              <Link className="btn btn-secondary btn-small" to={paths.register}>
                {t`Sign up to buy`} <span className="visually-hidden">{item.name}</span>
              </Link>
            )}
          />
        )}
      </QueryState>
    </section>
  );
}
