import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` for a component that reads server state: its chunk and the query provider load side by
 * side (no waterfall), and the component renders inside the app's one QueryClient. The provider is
 * imported here only dynamically, so whatever imports this helper does not pull TanStack Query into
 * its own chunk (the entry and the home page stay under their budget; docs/decisions/0093).
 */
export function lazyWithServerState<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async () => {
    const [{ default: Inner }, { ServerStateProvider }] = await Promise.all([load(), import('./server-state-provider')]);
    function WithServerState(props: P) {
      return (
        <ServerStateProvider>
          <Inner {...props} />
        </ServerStateProvider>
      );
    }
    return { default: WithServerState };
  });
}
