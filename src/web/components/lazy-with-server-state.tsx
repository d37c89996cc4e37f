import { lazy, type ComponentProps, type ComponentType } from 'react';

/**
 * `React.lazy` for a component that reads server state: its chunk and the query provider load side by
 * side (no waterfall), and the component renders inside the app's one QueryClient. The provider is
 * imported here only dynamically, so whatever imports this helper does not pull TanStack Query into
 * its own chunk (the entry and the home page stay under their budget; docs/decisions/0093).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, its props kept below
export function lazyWithServerState<C extends ComponentType<any>>(load: () => Promise<{ default: C }>) {
  return lazy(async () => {
    const [{ default: Component }, { ServerStateProvider }] = await Promise.all([load(), import('./server-state-provider')]);
    const Inner = Component as ComponentType<ComponentProps<C>>;
    function WithServerState(props: ComponentProps<C>) {
      return (
        <ServerStateProvider>
          <Inner {...props} />
        </ServerStateProvider>
      );
    }
    return { default: WithServerState };
  });
}
