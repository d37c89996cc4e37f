import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CONNECT_ERROR_REDIRECT_MS } from '#shared/constants';
import { paths } from '#shared/routes';

/** Where both callbacks end: the settings (as the product's routes say), opened at the connections. */
const SETTINGS_AFTER_CONNECT = `${paths.settings}#connections`;

export type CallbackOutcome = { ok: true } | { ok: false; message: string };
export type CallbackPhase = { state: 'working' } | { state: 'failed'; message: string } | { state: 'done' };

/**
 * Drives a transient connection screen (docs/product.md#routes): runs `work` once for `key`, then goes to
 * /dashboard/settings at once on success, or after CONNECT_ERROR_REDIRECT_MS showing the error.
 */
export function useConnectionCallback(key: string, work: () => Promise<CallbackOutcome>): CallbackPhase {
  const navigate = useNavigate();
  // OAuth codes and Telegram payloads are single use, and React StrictMode mounts twice in development:
  // the query cache runs `work` once per key for the life of the page and hands every mount its outcome.
  // (`work` never throws: a failure is an outcome.)
  const run = useQuery({
    queryKey: ['connections', 'callback', key],
    queryFn: work,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
  const outcome = run.data;
  const phase: CallbackPhase = !outcome
    ? { state: 'working' }
    : outcome.ok
      ? { state: 'done' }
      : { state: 'failed', message: outcome.message };

  useEffect(() => {
    if (phase.state === 'done') {
      void navigate(SETTINGS_AFTER_CONNECT, { replace: true });
      return;
    }
    if (phase.state !== 'failed') return;
    const timer = setTimeout(() => void navigate(SETTINGS_AFTER_CONNECT, { replace: true }), CONNECT_ERROR_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [phase.state, navigate]);

  return phase;
}
