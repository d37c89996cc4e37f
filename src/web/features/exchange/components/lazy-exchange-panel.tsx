import { lazy, Suspense } from 'react';
import { useAfterFirstRender } from '../../../components/use-after-first-render';

// The panel (QR codes, selects, its styles) loads on its own, off the page's critical path.
const ExchangePanel = lazy(() => import('./exchange-panel'));

/**
 * The Exchange section, loaded lazily once the page around it is on screen; the placeholder keeps
 * the section's id so #exchange links work.
 */
export function LazyExchangePanel({ id = 'exchange' }: { id?: string }) {
  const ready = useAfterFirstRender();
  const placeholder = (
    <section id={id} className="section" aria-busy="true" aria-label="Exchange">
      <p role="status" className="muted">
        Loading the exchange…
      </p>
    </section>
  );
  return ready ? (
    <Suspense fallback={placeholder}>
      <ExchangePanel id={id} />
    </Suspense>
  ) : (
    placeholder
  );
}
