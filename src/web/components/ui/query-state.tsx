import { t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { useUiLocale } from '#web/components/use-ui-locale';

interface QueryStateProps<T> {
  /** What the query answered; null or undefined while nothing has arrived yet. */
  data: T | null | undefined;
  /** Shown while nothing has arrived (and in place of the content, never beside it). */
  loading: ReactNode;
  /** Whether what arrived is empty: then `empty` shows instead of the content. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** The last call's failure, if any; shown above what is on screen (the last answer stays). */
  error?: string | null;
  /** Offers "Try again" under the error, calling this (e.g. the query's refetch). */
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}

/**
 * The loading / error / empty / content block that lists and tables repeat: an error is announced
 * (role="alert") above whatever is shown, a first load is marked busy, and an empty answer gets its
 * own sentence instead of an empty table (unless an error explains the emptiness).
 */
export function QueryState<T>({ data, loading, isEmpty, empty, error, onRetry, children }: QueryStateProps<T>) {
  useUiLocale();
  return (
    <>
      {error &&
        (onRetry ? (
          <div role="alert">
            <p className="field-error">{error}</p>
            <button type="button" className="btn btn-secondary btn-small" onClick={onRetry}>
              {t`Try again`}
            </button>
          </div>
        ) : (
          <p className="field-error" role="alert">
            {error}
          </p>
        ))}
      {data === null || data === undefined ? (
        // A first load that failed is not loading any more: the error says what happened.
        error ? null : (
          <p aria-busy="true">{loading}</p>
        )
      ) : isEmpty?.(data) ? (
        // An empty answer that came with an error is not "nothing yet": the error stands alone.
        error ? null : (
          <p className="empty-state">{empty}</p>
        )
      ) : (
        children(data)
      )}
    </>
  );
}
