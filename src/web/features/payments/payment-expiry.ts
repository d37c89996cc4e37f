import { PAYMENT_EXPIRY_S, STORAGE_KEYS } from '#shared/constants';

/** The payment page's deadline, kept per payment (docs/product.md#browser-state, #constants) so a reload keeps counting. */
export function readPaymentExpiry(id: string): number | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEYS.paymentExpiry(id));
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export function savePaymentExpiry(id: string, expiresAtMs: number): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.paymentExpiry(id), String(Math.round(expiresAtMs)));
  } catch {
    // Private mode or full storage: the countdown then restarts on reload, nothing worse.
  }
}

export function clearPaymentExpiry(id: string): void {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.paymentExpiry(id));
  } catch {
    // Nothing to clear.
  }
}

/** The saved deadline, or a new one an hour from now (saved), for a payment page opened fresh. */
export function ensurePaymentExpiry(id: string, now = Date.now()): number {
  const saved = readPaymentExpiry(id);
  if (saved !== null) return saved;
  const expiry = now + PAYMENT_EXPIRY_S * 1000;
  savePaymentExpiry(id, expiry);
  return expiry;
}

/** mm:ss for a number of seconds (minutes may pass 59 only if a deadline is longer than an hour). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
