import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../../shared/routes';
import { AppLoading } from './app-loading';
import { ErrorFallback } from './error-fallback';
import { RootLayout } from './layout/root-layout';

/** Every page is its own chunk (spec section 2: all pages load lazily). */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // The layout itself failed: the fallback stands alone, so it brings its own <main>.
    errorElement: <ErrorFallback asMain />,
    hydrateFallbackElement: <AppLoading />,
    children: [
      {
        // A page that crashes or whose chunk fails to load keeps the header and footer around it.
        errorElement: <ErrorFallback />,
        children: [
          { path: paths.home, ...page(() => import('../features/marketing/pages/home-page')) },
          { path: `${paths.status}/*`, ...page(() => import('../features/marketing/pages/status-page')) },
          { path: `${paths.privacy}/*`, ...page(() => import('../features/marketing/pages/privacy-page')) },
          { path: `${paths.terms}/*`, ...page(() => import('../features/marketing/pages/terms-page')) },
          { path: `${paths.dashboard}/*`, ...page(() => import('../features/dashboard/pages/dashboard-page')) },
          { path: paths.patchNotes, ...page(() => import('../features/marketing/pages/patch-notes-page')) },
          { path: paths.login, ...page(() => import('../features/auth/pages/login-page')) },
          { path: paths.register, ...page(() => import('../features/auth/pages/register-page')) },
          { path: paths.paymentProcess, ...page(() => import('../features/payments/pages/payment-process-page')) },
          { path: paths.paymentComplete, ...page(() => import('../features/payments/pages/payment-complete-page')) },
          { path: paths.jobs, ...page(() => import('../features/marketing/pages/jobs-page')) },
          { path: paths.portfolio, ...page(() => import('../features/marketing/pages/portfolio-page')) },
          { path: paths.reviews, ...page(() => import('../features/marketing/pages/reviews-page')) },
          { path: paths.discordCallback, ...page(() => import('../features/connections/pages/discord-callback-page')) },
          { path: paths.telegramCallback, ...page(() => import('../features/connections/pages/telegram-callback-page')) },
          { path: '*', ...page(() => import('./not-found-page')) },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
