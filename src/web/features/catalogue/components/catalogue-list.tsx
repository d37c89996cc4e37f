import type { ReactNode } from 'react';
import type { CatalogueItem } from '#shared/schemas/catalogue';
import { useLocale } from '#web/features/language';
import { creditsLabel, stockLabel } from '../lib/format';

/** The active items as cards; `action` renders each card's button or link. */
export function CatalogueList({ items, action }: { items: CatalogueItem[]; action: (item: CatalogueItem) => ReactNode }) {
  useLocale();
  return (
    <ul className="catalogue-list">
      {items.map((item) => {
        const stock = stockLabel(item.stock);
        return (
          <li key={item._id} className="catalogue-item" data-testid="catalogue-item">
            <h3>{item.name}</h3>
            {item.description && <p className="muted catalogue-description">{item.description}</p>}
            <p className="catalogue-price">
              <strong>{creditsLabel(item.priceCents)}</strong>
              {stock && <span className={`catalogue-stock${item.stock === 0 ? ' sold-out' : ''}`}>{stock}</span>}
            </p>
            {action(item)}
          </li>
        );
      })}
    </ul>
  );
}
