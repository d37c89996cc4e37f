import { t } from '@lingui/core/macro';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { dashboardPaths, exchangePath, paths } from '#shared/routes';
import { TOP_UP_PARAM } from '#web/features/payments/top-up-link';
import { usePageMeta } from '#web/components/use-page-meta';
import { isGuestUser, useSessionStore } from '#web/features/auth';
import { useSessionUser } from '#web/features/auth/user';
import { useLocale } from '#web/features/language';
import { GuestDashboard } from '../components/guest-dashboard';
import { UserDashboard } from '../components/user-dashboard';
import { DashboardShell } from '../components/dashboard-shell';
import '../dashboard.css';

// Sub-pages load lazily too (docs/product.md#routes).
const SettingsPage = lazy(() => import('./settings-page'));
const SupportPage = lazy(() => import('#web/features/tickets/pages/support-page'));
const StaffPage = lazy(() => import('#web/features/admin/pages/staff-page'));
const ReceiptPage = lazy(() => import('#web/features/payments/pages/receipt-page'));
const PaymentPage = lazy(() => import('#web/features/payments/pages/payment-page'));
const ExchangePage = lazy(() => import('#web/features/exchange/pages/exchange-page'));
const AdvertisePage = lazy(() => import('#web/features/ads/pages/advertise-dashboard-page'));
const WalletPage = lazy(() => import('./wallet-page'));
const ExchangesPage = lazy(() => import('./exchanges-page'));
const ShopPage = lazy(() => import('./shop-page'));
const ReferralsPage = lazy(() => import('#web/features/referrals/pages/my-referrals-page'));

function Loading({ label }: { label: string }) {
  return (
    <section className="page dashboard-page">
      <p role="status" className="muted">
        {label}
      </p>
    </section>
  );
}

/**
 * The dashboard's own title, only where no sub-page is shown: a sub-page sets its own (Settings, Wallet),
 * and this page's effect, run after its children's whenever the language changes, would overwrite it.
 */
function DashboardTitle({ children }: { children: ReactNode }) {
  useLocale();
  usePageMeta(t`Dashboard`);
  return children;
}

/** A lazily loaded sub-page with its own loading message. */
function Lazy({ page: Page, loading }: { page: ComponentType; loading: string }) {
  return (
    <Suspense fallback={<Loading label={loading} />}>
      <Page />
    </Suspense>
  );
}

/**
 * /dashboard/*: signed-out visitors go to /login, guests see the guest dashboard, users their own: pages
 * beside a side navigation (docs/decisions/0321-dashboard-shell.md). /dashboard/settings holds account
 * settings and connections, and the staff console its own areas; both bring their own navigation.
 */
export default function DashboardPage() {
  useLocale();
  const sessionChecked = useSessionStore((s) => s.sessionChecked);
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const user = useSessionUser();

  if (!sessionChecked)
    return (
      <DashboardTitle>
        <Loading label={t`Loading your dashboard…`} />
      </DashboardTitle>
    );
  if (isGuest) {
    return (
      <Routes>
        <Route
          index
          element={
            <DashboardTitle>
              <GuestDashboard />
            </DashboardTitle>
          }
        />
        <Route path="support/:ticketId?" element={<Lazy page={SupportPage} loading={t`Loading support…`} />} />
        <Route path="exchanges/:exchangeId" element={<Lazy page={ExchangePage} loading={t`Loading the exchange…`} />} />
        <Route
          path="settings/*"
          element={
            <DashboardTitle>
              <GuestDashboard title={t`Settings need an account`} />
            </DashboardTitle>
          }
        />
        <Route path="*" element={<Navigate to={paths.dashboard} replace />} />
      </Routes>
    );
  }
  if (!isAuthenticated) return <Navigate to={paths.login} replace />;
  // Signed in, the user is in the query cache already (sign-in and the start-up check put it there).
  if (!user || isGuestUser(user))
    return (
      <DashboardTitle>
        <Loading label={t`Loading your dashboard…`} />
      </DashboardTitle>
    );

  const needsOnboarding = !user.onboardingCompleted && user.role === 'user';
  const inShell = (element: ReactNode) => (needsOnboarding ? element : <DashboardShell>{element}</DashboardShell>);

  return (
    <Routes>
      {/* Onboarding is a focused flow: no navigation around it. */}
      <Route
        index
        element={
          <DashboardTitle>
            <OlderDashboardLink>{inShell(<UserDashboard user={user} />)}</OlderDashboardLink>
          </DashboardTitle>
        }
      />
      <Route path="wallet" element={inShell(<Lazy page={WalletPage} loading={t`Loading your wallet…`} />)} />
      <Route path="exchanges" element={inShell(<Lazy page={ExchangesPage} loading={t`Loading the exchange…`} />)} />
      <Route path="shop" element={inShell(<Lazy page={ShopPage} loading={t`Loading the shop…`} />)} />
      <Route path="settings/:section?" element={<Lazy page={SettingsPage} loading={t`Loading settings…`} />} />
      <Route path="support/:ticketId?" element={inShell(<Lazy page={SupportPage} loading={t`Loading support…`} />)} />
      <Route path="staff/*" element={<Lazy page={StaffPage} loading={t`Loading the staff console…`} />} />
      <Route path="receipts/:entryId" element={inShell(<Lazy page={ReceiptPage} loading={t`Loading the receipt…`} />)} />
      <Route path="payments/:paymentId" element={inShell(<Lazy page={PaymentPage} loading={t`Loading the payment…`} />)} />
      <Route path="exchanges/:exchangeId" element={inShell(<Lazy page={ExchangePage} loading={t`Loading the exchange…`} />)} />
      <Route path="advertise/*" element={inShell(<Lazy page={AdvertisePage} loading={t`Loading advertising…`} />)} />
      <Route path="referrals" element={inShell(<Lazy page={ReferralsPage} loading={t`Loading your referrals…`} />)} />
      <Route path="*" element={<Navigate to={paths.dashboard} replace />} />
    </Routes>
  );
}

/**
 * Links of the one-page dashboard (sent in mails and notices before its pages had addresses) open the page
 * that now holds the part they name (docs/decisions/0321-dashboard-shell.md).
 */
function OlderDashboardLink({ children }: { children: ReactNode }) {
  const { search, hash } = useLocation();
  const query = new URLSearchParams(search);
  const exchange = query.get('exchange');
  if (exchange) return <Navigate to={exchangePath(exchange)} replace />;
  if (query.has(TOP_UP_PARAM)) return <Navigate to={`${dashboardPaths.wallet}${search}${hash}`} replace />;
  const page = PAGE_OF_ANCHOR[hash.slice(1)];
  if (page) return <Navigate to={`${page}${hash}`} replace />;
  return children;
}

const PAGE_OF_ANCHOR: Record<string, string> = {
  'top-up': dashboardPaths.wallet,
  credits: dashboardPaths.wallet,
  payments: dashboardPaths.wallet,
  exchange: dashboardPaths.exchanges,
  orders: dashboardPaths.shop,
  catalogue: dashboardPaths.shop,
};
