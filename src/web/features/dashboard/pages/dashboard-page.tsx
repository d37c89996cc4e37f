import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { isGuestUser, useSessionStore } from '#web/features/auth';
import { useSessionUser } from '#web/features/auth/user';
import { GuestDashboard } from '../components/guest-dashboard';
import { UserDashboard } from '../components/user-dashboard';
import '../dashboard.css';

// Sub-pages load lazily too (docs/product.md#routes).
const SettingsPage = lazy(() => import('./settings-page'));
const SupportPage = lazy(() => import('#web/features/tickets/pages/support-page'));
const StaffPage = lazy(() => import('#web/features/admin/pages/staff-page'));
const ReceiptPage = lazy(() => import('#web/features/payments/pages/receipt-page'));
const PaymentPage = lazy(() => import('#web/features/payments/pages/payment-page'));
const ExchangePage = lazy(() => import('#web/features/exchange/pages/exchange-page'));
const AdvertisePage = lazy(() => import('#web/features/ads/pages/advertise-dashboard-page'));

function Loading({ label }: { label: string }) {
  return (
    <section className="page dashboard-page">
      <p role="status" className="muted">
        {label}
      </p>
    </section>
  );
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
 * /dashboard/*: signed-out visitors go to /login, guests see the guest dashboard, users their own.
 * /dashboard/settings holds account settings (sessions, password) and, from the connections feature,
 * account connections.
 */
export default function DashboardPage() {
  usePageMeta('Dashboard');
  const sessionChecked = useSessionStore((s) => s.sessionChecked);
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const user = useSessionUser();

  if (!sessionChecked) return <Loading label="Loading your dashboard…" />;
  if (isGuest) {
    return (
      <Routes>
        <Route index element={<GuestDashboard />} />
        <Route path="support/:ticketId?" element={<Lazy page={SupportPage} loading="Loading support…" />} />
        <Route path="exchanges/:exchangeId" element={<Lazy page={ExchangePage} loading="Loading the exchange…" />} />
        <Route path="settings/*" element={<GuestDashboard title="Settings need an account" />} />
        <Route path="*" element={<Navigate to={paths.dashboard} replace />} />
      </Routes>
    );
  }
  if (!isAuthenticated) return <Navigate to={paths.login} replace />;
  // Signed in, the user is in the query cache already (sign-in and the start-up check put it there).
  if (!user || isGuestUser(user)) return <Loading label="Loading your dashboard…" />;

  return (
    <Routes>
      <Route index element={<UserDashboard user={user} />} />
      <Route path="settings/:section?" element={<Lazy page={SettingsPage} loading="Loading settings…" />} />
      <Route path="support/:ticketId?" element={<Lazy page={SupportPage} loading="Loading support…" />} />
      <Route path="staff/*" element={<Lazy page={StaffPage} loading="Loading the staff console…" />} />
      <Route path="receipts/:entryId" element={<Lazy page={ReceiptPage} loading="Loading the receipt…" />} />
      <Route path="payments/:paymentId" element={<Lazy page={PaymentPage} loading="Loading the payment…" />} />
      <Route path="exchanges/:exchangeId" element={<Lazy page={ExchangePage} loading="Loading the exchange…" />} />
      <Route path="advertise" element={<Lazy page={AdvertisePage} loading="Loading advertising…" />} />
      <Route path="*" element={<Navigate to={paths.dashboard} replace />} />
    </Routes>
  );
}
