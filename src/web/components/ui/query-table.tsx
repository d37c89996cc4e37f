import type { ReactNode } from 'react';
import { errorMessage } from '#web/lib/api-client';
import { QueryState } from './query-state';

/** What QueryTable needs of a TanStack query result (useQuery's answer fits). */
export interface TableQuery<T> {
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

interface QueryTableProps<T, R> {
  query: TableQuery<T>;
  /** The table's accessible name. */
  label: string;
  /** The rows in what the query answered. */
  rows: (data: T) => readonly R[];
  /** The header cells (`<th scope="col">…</th>`), in one row. */
  columns: ReactNode;
  /** One `<tr>` per row, with its key. */
  row: (item: R) => ReactNode;
  loading: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  /** The words for a failed load: errorMessage's fallback, or the whole text made from the error. */
  failed: string | ((error: unknown) => string);
  /** Above the table when there are rows (a summary of what it shows). */
  summary?: (data: T) => ReactNode;
  className?: string;
  wrapClassName?: string;
  /** The wrapper scrolls sideways on a narrow screen: focusable and named, so a keyboard can scroll it. */
  scrollable?: boolean;
}

/**
 * The one table over a query (docs/decisions/0225): loading while nothing has arrived, the error with
 * Try again (the last rows stay under it), a sentence when there are no rows, else the table.
 */
export function QueryTable<T, R>({
  query,
  label,
  rows,
  columns,
  row,
  loading,
  empty,
  failed,
  summary,
  className = 'admin-table',
  wrapClassName = 'table-wrap',
  scrollable = false,
}: QueryTableProps<T, R>) {
  return (
    <QueryState
      data={query.data}
      loading={loading}
      error={query.error ? (typeof failed === 'function' ? failed(query.error) : errorMessage(query.error, failed)) : null}
      onRetry={() => void query.refetch()}
      isEmpty={(data) => rows(data).length === 0}
      empty={empty}
    >
      {(data) => (
        <>
          {summary?.(data)}
          <div className={wrapClassName} {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}>
            <table className={className} aria-label={label}>
              <thead>
                <tr>{columns}</tr>
              </thead>
              <tbody>{rows(data).map(row)}</tbody>
            </table>
          </div>
        </>
      )}
    </QueryState>
  );
}
