import { CreditBalanceLine } from '../components/credit-balance-card';
import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { useSessionUser } from '#web/features/auth/user';
import { isGuestUser } from '#web/features/auth';
import { CatalogueSection } from '#web/features/catalogue';

/** /dashboard/shop: the catalogue paid for with credits, and my orders. */
export default function ShopPage() {
  useLocale();
  usePageMeta(t`Shop and orders`);
  const user = useSessionUser();
  if (!user || isGuestUser(user)) return null;
  return (
    <section className="page dashboard-page" aria-labelledby="shop-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="shop-title">{t`Shop and orders`}</h1>
        </div>
        <CreditBalanceLine user={user} />
      </header>
      <CatalogueSection userId={user._id} />
    </section>
  );
}
