import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether the header's bar must fold its links into the menu: true when its content, laid out on one
 * line, would reach into the gutter at the window's right edge. Measured rather than set at a width, since the links' length depends on
 * the language (decision 0326). The bar is measured unfolded for an instant within the same frame (the
 * header's data-folded attribute set to false and back, with nothing painted in between), whenever the
 * bar changes size, its content changes (a language, the account's controls arriving) or fonts load.
 */
export function useFoldWhenCrowded(header: RefObject<HTMLElement | null>, bar: RefObject<HTMLElement | null>): boolean {
  const [folded, setFolded] = useState(false);
  const foldedRef = useRef(folded);
  foldedRef.current = folded;

  useLayoutEffect(() => {
    const root = header.current;
    const inner = bar.current;
    if (!root || !inner) return;

    const measure = () => {
      const shown = root.dataset.folded;
      root.dataset.folded = 'false';
      // The content may reach past the centred bar into the page's margin, as the English header always
      // has on a wide screen, but not into the last gutter at the window's edge (the bar's own padding).
      const gutter = parseFloat(getComputedStyle(inner).paddingRight) || 0;
      const contentRight = inner.getBoundingClientRect().left + inner.scrollWidth - gutter;
      // A pixel of slack: sub-pixel widths round differently in layout and in scrollWidth.
      const crowded = contentRight > document.documentElement.clientWidth - gutter + 1;
      if (shown !== undefined) root.dataset.folded = shown;
      if (crowded !== foldedRef.current) {
        foldedRef.current = crowded;
        setFolded(crowded);
      }
    };

    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const resize = new ResizeObserver(measure);
    resize.observe(inner);
    // Past the bar's largest width the window still grows, and with it the room the content may take.
    window.addEventListener('resize', measure);
    // Text and elements that change inside the bar (a language, the account menu and bell loading).
    const mutation = new MutationObserver(measure);
    mutation.observe(inner, { childList: true, subtree: true, characterData: true });
    let active = true;
    void document.fonts?.ready.then(() => {
      if (active) measure();
    });
    return () => {
      active = false;
      resize.disconnect();
      mutation.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [header, bar]);

  return folded;
}
