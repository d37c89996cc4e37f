import { useCallback, useEffect, useRef, useState } from 'react';
import { STATUS_PAGE_REFRESH_MS, type StatusResponse } from '../../../../shared/schemas/status';
import { ApiError } from '../../../lib/api-client';
import { getStatus } from '../api/get-status';

export interface LiveStatus {
  data: StatusResponse | null;
  /** Why the last refresh failed; the last good data stays on screen meanwhile. */
  error: string | null;
  loading: boolean;
  /** When the shown data arrived (ms since epoch). */
  updatedAt: number | null;
  refresh(): void;
}

/**
 * The status report, refreshed every STATUS_PAGE_REFRESH_MS while the tab is visible, and at once when
 * the visitor comes back to the tab.
 */
export function useLiveStatus(): LiveStatus {
  const [data, setData] = useState<StatusResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    getStatus(controller.signal)
      .then((next) => {
        setData(next);
        setError(null);
        setUpdatedAt(Date.now());
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof ApiError ? err.message : 'Could not load the status');
      })
      .finally(() => {
        if (inFlight.current === controller) {
          inFlight.current = null;
          setLoading(false);
        }
      });
  }, []);

  useEffect(() => {
    refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, STATUS_PAGE_REFRESH_MS);
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      inFlight.current?.abort();
    };
  }, [refresh]);

  return { data, error, loading, updatedAt, refresh };
}
