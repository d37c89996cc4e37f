import { t } from '@lingui/core/macro';
import { Suspense, useEffect, useRef } from 'react';
import { lazyWithServerState } from '#web/components/lazy-with-server-state';
import { useAfterFirstRender } from '#web/components/use-after-first-render';
import { useNearViewport } from '#web/components/use-near-viewport';
import { useLocale } from '#web/features/language';

// The panel (QR codes, selects, its styles, and the query library on the home page) loads on its own,
// off the page's critical path.
const ExchangePanel = lazyWithServerState(() => import('./exchange-panel'));

/**
 * The Exchange section, loaded lazily once the page around it is on screen and the visitor comes near
 * it (on the home page it sits below the fold); the placeholder keeps the section's id so #exchange
 * links work.
 */
export function LazyExchangePanel({ id = 'exchange' }: { id?: string }) {
  useLocale();
  const ready = useAfterFirstRender();
  const placeholderRef = useRef<HTMLElement>(null);
  const near = useNearViewport(placeholderRef, { anchor: id });
  // Opened at /#exchange: the browser looked for the section before the app had drawn it, so go there
  // now (the panel then loads in the placeholder's place, whose top does not move).
  useEffect(() => {
    if (window.location.hash === `#${id}`) placeholderRef.current?.scrollIntoView();
  }, [id]);
  const placeholder = (
    <section id={id} ref={placeholderRef} className="section exchange-placeholder" aria-busy="true" aria-label={t`Exchange`}>
      <p role="status" className="muted">
        {t`Loading the exchange…`}
      </p>
    </section>
  );
  return ready && near ? (
    <Suspense fallback={placeholder}>
      <ExchangePanel id={id} />
    </Suspense>
  ) : (
    placeholder
  );
}
