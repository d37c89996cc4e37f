import { lazy, Suspense } from 'react';

// The panel (QR codes, selects, its styles) loads on its own, off the page's critical path.
const ExchangePanel = lazy(() => import('./exchange-panel'));

/** The Exchange section, loaded lazily; the placeholder keeps the section's id so #exchange links work. */
export function LazyExchangePanel({ id = 'exchange' }: { id?: string }) {
  return (
    <Suspense
      fallback={
        <section id={id} className="section" aria-busy="true" aria-label="Exchange">
          <p role="status" className="muted">
            Loading the exchange…
          </p>
        </section>
      }
    >
      <ExchangePanel id={id} />
    </Suspense>
  );
}
