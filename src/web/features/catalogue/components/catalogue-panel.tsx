import { CatalogueManager } from './catalogue-manager';
import { OrdersManager } from './orders-manager';
import '../catalogue.css';

/** The operator console's Catalogue tab: the catalogue and the orders. */
export function CataloguePanel({ isAdmin }: { isAdmin: boolean }) {
  return (
    <>
      <CatalogueManager isAdmin={isAdmin} />
      <OrdersManager isAdmin={isAdmin} />
    </>
  );
}
