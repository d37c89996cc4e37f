import { useEffect, useState } from 'react';
import { FINAL_EXCHANGE_STATUSES } from '../../../../shared/exchange-statuses';
import type { Exchange } from '../../../../shared/schemas/exchange';
import { getExchange } from '../api/exchange-api';

/**
 * How often an open exchange is asked about. Faster than the payment page's 15 s: a swap moves through
 * several steps and someone is usually watching; the server asks the provider at most every 10 s.
 */
export const EXCHANGE_POLL_MS = 5000;

/** Follows an exchange live: polls while it is unfinished and the tab is visible, at once on return. */
export function useExchangeStatus(initial: Exchange): { exchange: Exchange; error: string | null } {
  const [exchange, setExchange] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const done = FINAL_EXCHANGE_STATUSES.includes(exchange.status);

  useEffect(() => {
    setExchange(initial);
  }, [initial]);

  useEffect(() => {
    if (done) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const controller = new AbortController();

    const poll = async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (document.visibilityState === 'visible') {
        try {
          const { exchange: latest } = await getExchange(initial._id, { signal: controller.signal });
          if (stopped) return;
          setExchange(latest);
          setError(null);
          if (FINAL_EXCHANGE_STATUSES.includes(latest.status)) return;
        } catch {
          if (stopped) return;
          setError('Could not update the status. Retrying…');
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), EXCHANGE_POLL_MS);
    };

    const onVisible = () => {
      if (document.visibilityState === 'visible') void poll();
    };
    timer = setTimeout(() => void poll(), EXCHANGE_POLL_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [initial._id, done]);

  return { exchange, error };
}
