import { CreditBalanceLine } from '../components/credit-balance-card';
import { usePageMeta } from '#web/components/use-page-meta';
import { useSessionUser } from '#web/features/auth/user';
import { isGuestUser } from '#web/features/auth';
import { CatalogueSection } from '#web/features/catalogue';

/** /dashboard/shop: the catalogue paid for with credits, and my orders. */
export default function ShopPage() {
  usePageMeta('Shop and orders');
  const user = useSessionUser();
  if (!user || isGuestUser(user)) return null;
  return (
    <section className="page dashboard-page" aria-labelledby="shop-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1 id="shop-title">Shop and orders</h1>
        </div>
        <CreditBalanceLine user={user} />
      </header>
      <CatalogueSection userId={user._id} />
    </section>
  );
}
