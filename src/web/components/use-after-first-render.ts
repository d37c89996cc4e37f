import { startTransition, useEffect, useState } from 'react';

/**
 * False on a component's first render, true from the render after it has been committed. For lazily
 * loaded sections of a page (`{ready && <Suspense>…</Suspense>}`): the router swaps in a new page
 * inside a transition, and React (19) then held the whole page back, header and headline included,
 * until every lazy component in it had loaded, even inside its own Suspense boundary; on the home page
 * that kept "Loading Olympus…" up about a second longer under Lighthouse's mobile throttling. Mounted
 * a render later, the section's chunk loads while the page is already on screen. The switch is a
 * transition too: the placeholder stays until the chunk is in, and the render is time-sliced.
 */
export function useAfterFirstRender(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startTransition(() => setReady(true));
  }, []);
  return ready;
}
