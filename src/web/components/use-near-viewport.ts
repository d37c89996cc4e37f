import { useEffect, useState, type RefObject } from 'react';

/**
 * True once the element comes within `margin` of the viewport (or the page was opened at its
 * `#anchor`), and from then on. For sections below the fold whose code need not load with the page:
 * the visitor who scrolls toward them gets them in time, the one who never does never pays for them.
 */
export function useNearViewport(ref: RefObject<Element | null>, options: { margin?: string; anchor?: string } = {}): boolean {
  const { margin = '50% 0px', anchor } = options;
  const [near, setNear] = useState(() => typeof window !== 'undefined' && anchor !== undefined && window.location.hash === `#${anchor}`);
  useEffect(() => {
    if (near) return;
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    // A link to the anchor followed after the page loaded ("See how swaps work").
    const onHash = () => {
      if (anchor !== undefined && window.location.hash === `#${anchor}`) setNear(true);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      observer.disconnect();
      window.removeEventListener('hashchange', onHash);
    };
  }, [near, ref, margin, anchor]);
  return near;
}
