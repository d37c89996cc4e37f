import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toCents } from '#shared/fees';
import { receiptPath } from '#shared/routes';
import type { CatalogueItem, PurchaseResponse } from '#shared/schemas/catalogue';
import { QueryState } from '#web/components/ui/query-state';
import { useCredits } from '#web/features/auth/credits';
import { errorMessage } from '#web/lib/api-client';
import { useCatalogue } from '../api/get-catalogue';
import { BuyDialog, purchaseSentence } from './buy-dialog';
import { CatalogueList } from './catalogue-list';
import { MyOrders } from './my-orders';
import { useLocale } from '#web/features/language';
import '../catalogue.css';

/** The dashboard's "Use your credits": the catalogue with a Buy button per item, and my orders. */
export function CatalogueSection({ userId }: { userId: string }) {
  const ids = useId();
  useLocale();
  const catalogue = useCatalogue();
  const [buying, setBuying] = useState<CatalogueItem | null>(null);
  const [bought, setBought] = useState<PurchaseResponse | null>(null);
  // The balance is in credits (12.5); the catalogue counts cents. While the confirmation is open, ask
  // for the current balance (a top-up may have arrived meanwhile); otherwise the cached one will do.
  const balanceCents = toCents(useCredits(userId, buying !== null).data ?? 0);

  return (
    <section className="card catalogue-section" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Use your credits`}</h2>
      <div role="status" aria-live="polite" className="catalogue-bought-status">
        {bought && (
          <p className="notice catalogue-bought" data-testid="catalogue-bought">
            {purchaseSentence(bought)} <Link to={receiptPath(bought.order.ledgerEntryId)}>{t`View the receipt`}</Link>
          </p>
        )}
      </div>
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
            action={(item) => {
              const soldOut = item.stock !== null && item.stock <= 0;
              return (
                <button type="button" className="btn btn-primary btn-small" disabled={soldOut} onClick={() => setBuying(item)}>
                  {soldOut ? t`Sold out` : t`Buy`} <span className="visually-hidden">{item.name}</span>
                </button>
              );
            }}
          />
        )}
      </QueryState>
      {buying && <BuyDialog item={buying} balanceCents={balanceCents} onClose={() => setBuying(null)} onBought={setBought} />}
      <MyOrders />
    </section>
  );
}
