import { t } from '@lingui/core/macro';
import { useEffect } from 'react';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';

/** A lazy page whose chunk could not be fetched (typically: a new version was deployed meanwhile). */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Loading chunk/i.test(message);
}

interface ErrorFallbackProps {
  /** What went wrong (kept for the console; the visitor sees a plain explanation). */
  error: unknown;
  /** Render the <main> landmark too: the layout's own error replaces the whole layout. */
  asMain?: boolean;
}

/** Shown when a page crashes or fails to load (docs/product.md#routes: Something went wrong / Reload Page). */
export function ErrorFallback({ error, asMain = false }: ErrorFallbackProps) {
  useLocale();
  usePageMeta(t`Something went wrong`);

  useEffect(() => {
    // Keep the cause visible to whoever opens the console; the visitor only needs the way out.
    console.error(error);
  }, [error]);

  const content = (
    <section className="page error-page" role="alert" aria-labelledby="error-title">
      <h1 id="error-title">{t`Something went wrong`}</h1>
      <p className="lead">
        {isChunkLoadError(error)
          ? t`Part of the page could not be loaded, most likely because Olympus was just updated.`
          : t`An unexpected error stopped this page from showing.`}{' '}
        {t`Reloading usually fixes it.`}
      </p>
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {t`Reload Page`}
        </button>
        <a className="btn btn-ghost" href="/">
          {t`Go to the home page`}
        </a>
      </div>
    </section>
  );

  return asMain ? (
    <main id="main" tabIndex={-1}>
      {content}
    </main>
  ) : (
    content
  );
}
