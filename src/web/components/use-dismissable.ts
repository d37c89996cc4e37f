import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { useLocation } from 'react-router';

/**
 * The open state of a disclosure in the header (the account menu, the notification bell): a button that
 * shows a panel. Escape closes it and puts focus back on the button; a pointer down outside, focus
 * leaving it and any change of page (also back/forward) close it and leave focus where it is.
 * Spread `rootProps` on the element holding both, `buttonProps` on the button, and give the panel
 * `id={panelId}` and `hidden={!open}`.
 */
export function useDismissable() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const { pathname } = useLocation();

  // Closed whenever the page changes; set during render, so the new page never shows it open.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  return {
    open,
    close: () => setOpen(false),
    panelId,
    rootProps: {
      ref: root,
      // Tabbing out closes it; moving between its own items does not.
      onBlur: (event: FocusEvent<HTMLDivElement>) => {
        if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget as Node)) setOpen(false);
      },
    },
    buttonProps: {
      ref: button,
      type: 'button' as const,
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpen((o) => !o),
    },
  };
}
