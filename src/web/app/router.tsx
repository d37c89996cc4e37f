import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { paths } from '#shared/routes';
import { lazyWithServerState } from '#web/components/lazy-with-server-state';
import { RouteErrorBoundary } from './route-error-boundary';
import { RootLayout } from './layout/root-layout';

/**
 * Every page is its own chunk (docs/product.md#routes: all pages load lazily). The router runs in declarative
 * mode (`<Routes>`, React.lazy) rather than as a data router: the app loads no route data, and the
 * data router costs the home page about 16 KB of gzipped JavaScript (docs/decisions/0092).
 */
const page = (load: () => Promise<{ default: ComponentType }>) => {
  const Page = lazyWithServerState(load);
  return <Page />;
};

/**
 * Every page renders inside the app's QueryClient (server state, docs/decisions/0093), loaded with the
 * page's own chunk. Except the home page: TanStack Query would push its first load over budget, so only
 * the home page's lazy islands that read server state (the exchange panel, the ad) bring it along.
 */
const HomePageModule = lazy(() => import('#web/features/marketing/pages/home-page'));
const HomePage = <HomePageModule />;
const StatusPage = page(() => import('#web/features/status/pages/status-page'));
const PrivacyPage = page(() => import('#web/features/marketing/pages/privacy-page'));
const TermsPage = page(() => import('#web/features/marketing/pages/terms-page'));
const DashboardPage = page(() => import('#web/features/dashboard/pages/dashboard-page'));
const PatchNotesPage = page(() => import('#web/features/marketing/pages/patch-notes-page'));
const LoginPage = page(() => import('#web/features/auth/pages/login-page'));
const RegisterPage = page(() => import('#web/features/auth/pages/register-page'));
const PaymentProcessPage = page(() => import('#web/features/payments/pages/payment-process-page'));
const PaymentCompletePage = page(() => import('#web/features/payments/pages/payment-complete-page'));
const JobsPage = page(() => import('#web/features/marketing/pages/jobs-page'));
const PortfolioPage = page(() => import('#web/features/marketing/pages/portfolio-page'));
const ReviewsPage = page(() => import('#web/features/marketing/pages/reviews-page'));
const DiscordCallbackPage = page(() => import('#web/features/connections/pages/discord-callback-page'));
const TelegramCallbackPage = page(() => import('#web/features/connections/pages/telegram-callback-page'));
const VerifyEmailPage = page(() => import('#web/features/auth/pages/verify-email-page'));
const ForgotPasswordPage = page(() => import('#web/features/auth/pages/forgot-password-page'));
const ResetPasswordPage = page(() => import('#web/features/auth/pages/reset-password-page'));
const ConfirmEmailPage = page(() => import('#web/features/auth/pages/confirm-email-page'));
const UnsubscribePage = page(() => import('#web/features/auth/pages/unsubscribe-page'));
const HelpPage = page(() => import('#web/features/help/pages/help-page'));
const AdvertisePage = page(() => import('#web/features/marketing/pages/advertise-page'));
const NotificationsPage = page(() => import('#web/features/notifications/pages/notifications-page'));
const NotFoundPage = page(() => import('./not-found-page'));

/**
 * The route table of docs/product.md#routes. A page that crashes or whose chunk fails to load is caught inside
 * the layout (header and footer stay); a crash of the layout itself is caught here and stands alone.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary asMain>
      <Routes>
        <Route element={<RootLayout />}>
          <Route path={paths.home} element={HomePage} />
          <Route path={`${paths.status}/*`} element={StatusPage} />
          <Route path={`${paths.privacy}/*`} element={PrivacyPage} />
          <Route path={`${paths.terms}/*`} element={TermsPage} />
          <Route path={`${paths.help}/*`} element={HelpPage} />
          <Route path={`${paths.dashboard}/*`} element={DashboardPage} />
          <Route path={paths.patchNotes} element={PatchNotesPage} />
          <Route path={paths.login} element={LoginPage} />
          <Route path={paths.register} element={RegisterPage} />
          <Route path={paths.paymentProcess} element={PaymentProcessPage} />
          <Route path={paths.paymentComplete} element={PaymentCompletePage} />
          <Route path={paths.jobs} element={JobsPage} />
          <Route path={paths.portfolio} element={PortfolioPage} />
          <Route path={paths.reviews} element={ReviewsPage} />
          <Route path={paths.discordCallback} element={DiscordCallbackPage} />
          <Route path={paths.telegramCallback} element={TelegramCallbackPage} />
          <Route path={paths.verifyEmail} element={VerifyEmailPage} />
          <Route path={paths.forgotPassword} element={ForgotPasswordPage} />
          <Route path={paths.resetPassword} element={ResetPasswordPage} />
          <Route path={paths.confirmEmail} element={ConfirmEmailPage} />
          <Route path={paths.unsubscribe} element={UnsubscribePage} />
          <Route path={paths.advertise} element={AdvertisePage} />
          <Route path={paths.notifications} element={NotificationsPage} />
          <Route path="*" element={NotFoundPage} />
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}
