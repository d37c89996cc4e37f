import { lazy, Suspense, useEffect, useState } from 'react';
import { AppBrowserRouter } from './app-router';
import { AppRoutes } from './router';
import { registerRewardRedemption } from '#web/features/exchange/register-reward-redemption';

// Guest reward claims are redeemed after every non-guest sign-in (docs/product.md#guest-claims).
registerRewardRedemption();

const Toaster = lazy(() => import('#web/components/ui/toaster').then((m) => ({ default: m.Toaster })));

/**
 * The toast outlet, mounted once. No page needs a toast for its first paint, so the toast library
 * loads when the browser is idle instead of on the home page's critical path. Toasts raised before
 * then are kept by the library and appear as soon as the outlet mounts.
 */
function DeferredToaster() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const show = () => setReady(true);
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(show, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(show, 200);
    return () => window.clearTimeout(id);
  }, []);

  return ready ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function App() {
  return (
    <>
      <AppBrowserRouter>
        <AppRoutes />
      </AppBrowserRouter>
      <DeferredToaster />
    </>
  );
}
