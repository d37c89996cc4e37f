import { useEffect } from 'react';
import { toast, Toaster as HotToaster, useToasterStore, type DefaultToastOptions } from 'react-hot-toast';
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_POSITION } from '#shared/constants';

/** Durations of docs/product.md#constants; loading toasts stay until their caller resolves them. */
export const toastOptions: DefaultToastOptions = {
  duration: TOAST_DURATION_MS.default,
  success: { duration: TOAST_DURATION_MS.success },
  error: { duration: TOAST_DURATION_MS.error },
  loading: { duration: TOAST_DURATION_MS.loading },
  className: 'toast',
  // Inline because the library's own (light) styles are injected after our stylesheet; the theme's
  // custom properties, so a toast follows the palette (decision 0240).
  style: { background: 'var(--surface-2)', color: 'var(--text)', border: '1px solid var(--border)', maxWidth: 420 },
};

/**
 * The one toast outlet of the app (mounted once in the app root). Anyone may call `toast` from
 * react-hot-toast directly; this component decides where and how long toasts show.
 */
export function Toaster() {
  const { toasts } = useToasterStore();

  // react-hot-toast caps its queue at 20 internally; enforcing our own constant keeps the limit
  // explicit and correct if the documented number ever changes.
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(TOAST_LIMIT)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);

  return <HotToaster position={TOAST_POSITION} toastOptions={toastOptions} gutter={8} />;
}
