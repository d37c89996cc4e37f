import { useEffect, useRef } from 'react';

/**
 * Runs `task` now and every `intervalMs` while the page is visible (docs/decisions/0007): ticket
 * answers appear without a reload, and a hidden tab costs the server nothing.
 */
export function usePolling(task: () => void | Promise<void>, intervalMs: number, enabled = true): void {
  const latest = useRef(task);
  latest.current = task;

  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const run = () => {
      if (document.visibilityState === 'visible') void latest.current();
    };
    const start = () => {
      clearInterval(timer);
      timer = setInterval(run, intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        run();
        start();
      } else {
        clearInterval(timer);
      }
    };
    run();
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs, enabled]);
}

/**
 * Runs `task` again whenever its identity changes after the first render (a filter or page changed):
 * the polling above only picks up the new task at its next tick, up to a whole interval later.
 */
export function useRunOnChange(task: () => void | Promise<void>): void {
  const shown = useRef(task);
  useEffect(() => {
    if (shown.current === task) return;
    shown.current = task;
    void task();
  }, [task]);
}
