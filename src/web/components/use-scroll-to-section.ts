import { useEffect, type RefObject } from 'react';

/** How long the page may keep settling (sections above loading their data) before we stop following. */
const SETTLE_MS = 8_000;

/**
 * Scrolls to a section opened by its `#anchor` once it exists, and keeps it at the top while the page
 * settles: the sections above it load their data after it mounted and would otherwise push it out of
 * view. Stops at the first sign of the visitor (wheel, touch, key, pointer) or after a few seconds, so
 * it never fights someone who scrolls away.
 */
export function useScrollToSection(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    element.scrollIntoView?.({ block: 'start' });
    if (typeof ResizeObserver === 'undefined') return;

    const observer = new ResizeObserver(() => element.scrollIntoView?.({ block: 'start' }));
    observer.observe(document.body);
    const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, stop, true);
    };
    const timer = window.setTimeout(stop, SETTLE_MS);
    for (const name of events) window.addEventListener(name, stop, { capture: true, passive: true });
    return stop;
  }, [ref, active]);
}
