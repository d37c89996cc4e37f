import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { CONNECT_ERROR_REDIRECT_MS } from '../../../../shared/constants';
import { paths } from '../../../../shared/routes';
import { runOnce } from '../lib/run-once';

export type CallbackOutcome = { ok: true } | { ok: false; message: string };
export type CallbackPhase = { state: 'working' } | { state: 'failed'; message: string } | { state: 'done' };

/**
 * Drives a transient connection screen (spec section 2): runs `work` once for `key`, then goes to
 * /dashboard/settings at once on success, or after CONNECT_ERROR_REDIRECT_MS showing the error.
 */
export function useConnectionCallback(key: string, work: () => Promise<CallbackOutcome>): CallbackPhase {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<CallbackPhase>({ state: 'working' });

  useEffect(() => {
    let active = true;
    void runOnce(key, work).then((outcome) => {
      if (active) setPhase(outcome.ok ? { state: 'done' } : { state: 'failed', message: outcome.message });
    });
    return () => {
      active = false;
    };
    // `work` is recreated each render; the key names the one run that matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    if (phase.state === 'done') {
      void navigate(paths.settings, { replace: true });
      return;
    }
    if (phase.state !== 'failed') return;
    const timer = setTimeout(() => void navigate(paths.settings, { replace: true }), CONNECT_ERROR_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [phase, navigate]);

  return phase;
}
