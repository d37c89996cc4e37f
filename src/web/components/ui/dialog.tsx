import { useEffect, useRef, type DialogHTMLAttributes, type ReactNode } from 'react';

type DialogProps = Omit<DialogHTMLAttributes<HTMLDialogElement>, 'open' | 'onClose'> & {
  /** Shown while true; a dialog that is mounted only while shown leaves it out. */
  open?: boolean;
  /** Escape, the form's method="dialog", or closing from here: the owner drops its "open" state. */
  onClose: () => void;
  children: ReactNode;
};

/**
 * A modal dialog on the native <dialog>: `showModal()` makes the rest of the page inert, keeps focus
 * inside, dims everything under its backdrop (the sticky header too) and closes on Escape. When it
 * closes, focus goes back to what opened it. Every modal of the web is this one (its class is `modal`,
 * plus the caller's).
 */
export function Dialog({ open = true, onClose, className, children, ...rest }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal?.();
    return () => {
      if (el.open) el.close?.();
      opener?.focus();
    };
  }, [open]);
  return (
    <dialog ref={ref} className={className ? `modal ${className}` : 'modal'} onClose={onClose} {...rest}>
      {children}
    </dialog>
  );
}
