import { createContext, useContext, useLayoutEffect, useRef, useState, useTransition, type ReactNode } from 'react';
import { Router, UNSAFE_createBrowserHistory as createBrowserHistory, type Location, type NavigationType } from 'react-router';

const NavigationPendingContext = createContext(false);

/** True while the next page's code is loading (the current page stays on screen meanwhile). */
export function useNavigationPending(): boolean {
  return useContext(NavigationPendingContext);
}

/**
 * React Router's BrowserRouter, plus a pending flag: each location change is a React transition, so
 * the page on screen stays until the next one's lazily loaded code is in, and `useTransition` tells
 * the layout to show its progress bar meanwhile (what the data router's `useNavigation` did).
 */
export function AppBrowserRouter({ children }: { children: ReactNode }) {
  const history = useRef<ReturnType<typeof createBrowserHistory> | null>(null);
  history.current ??= createBrowserHistory({ v5Compat: true });
  const [state, setState] = useState<{ action: NavigationType; location: Location }>(() => ({
    action: history.current!.action,
    location: history.current!.location,
  }));
  const [pending, startTransition] = useTransition();
  useLayoutEffect(() => history.current!.listen((update) => startTransition(() => setState(update))), []);
  return (
    <NavigationPendingContext.Provider value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history.current}>
        {children}
      </Router>
    </NavigationPendingContext.Provider>
  );
}
