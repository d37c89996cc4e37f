/**
 * The one way the web makes an idempotency key: one per write the person means once (a purchase,
 * a staff credit change). `crypto.randomUUID` exists only in secure contexts; `getRandomValues` everywhere.
 * Either way 32 hex digits.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replace(/-/g, '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
