import { useEffect, useRef } from 'react';
import { AD_VIEWABLE_MS, AD_VIEWABLE_RATIO } from '#shared/ad-rules';

/**
 * Calls `onViewable` once when at least half of `element` has been on screen for one continuous
 * second (the IAB/MRC display rule, docs/product.md#ads). Leaving the viewport, or the tab being
 * hidden, before the second is up cancels the timer; coming back starts a new full second.
 */
export function useViewable(element: Element | null, onViewable: () => void, enabled = true): void {
  const callback = useRef(onViewable);
  useEffect(() => {
    callback.current = onViewable;
  });

  useEffect(() => {
    if (!element || !enabled || typeof IntersectionObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inView = false;
    let done = false;

    const stop = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    const start = () => {
      if (done || timer !== undefined || document.visibilityState !== 'visible') return;
      timer = setTimeout(() => {
        timer = undefined;
        done = true;
        observer.disconnect();
        callback.current();
      }, AD_VIEWABLE_MS);
    };

    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          inView = entry.isIntersecting && entry.intersectionRatio >= AD_VIEWABLE_RATIO;
          if (inView) start();
          else stop();
        }
      },
      // 0 as well, so leaving entirely is reported even when the element skips past 50% between frames.
      { threshold: [0, AD_VIEWABLE_RATIO, 1] },
    );
    const onVisibility = () => (document.visibilityState === 'visible' && inView ? start() : stop());

    observer.observe(element);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [element, enabled]);
}
