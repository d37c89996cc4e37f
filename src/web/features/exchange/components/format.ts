/** A claim deadline as a person reads it, in their own locale and time zone. */
export function formatDeadline(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Credits with 2 decimals (1 credit = 1 USD). */
export function formatCreditAmount(credits: number): string {
  return credits.toFixed(2);
}
