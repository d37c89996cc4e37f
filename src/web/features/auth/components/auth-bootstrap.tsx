import { useEffect } from 'react';
import { useSessionStore } from '../stores/session-store';

// Module scope, not a ref: StrictMode mounts effects twice in development, and the check must run once.
let started = false;

/** Checks the session once when the app starts (spec section 4). Renders nothing. */
export function AuthBootstrap() {
  useEffect(() => {
    if (started) return;
    started = true;
    void useSessionStore.getState().checkAuth();
  }, []);
  return null;
}
