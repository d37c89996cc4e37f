/** A claim deadline as a person reads it, in their own locale and time zone. */
export function formatDeadline(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Credits with 2 decimals (1 credit = 1 USD). */
export function formatCreditAmount(credits: number): string {
  return credits.toFixed(2);
}

/** A quote's expiry as a clock time (HH:MM:SS, 24-hour, local time). */
export function formatClock(ms: number): string {
  return new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

/** Time left as m:ss. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** A pair's limits as shown before an amount is typed: "Min 0.001 BTC · Max 2 BTC". */
export function formatLimits(min: string, max: string | null, ticker: string): string {
  const t = ticker.toUpperCase();
  return max === null ? `Min ${min} ${t}` : `Min ${min} ${t} · Max ${max} ${t}`;
}

/** The message for an amount outside a pair's limits, as the server words it; null when inside. */
export function rangeProblem(amount: number, min: string, max: string | null, ticker: string): string | null {
  const t = ticker.toUpperCase();
  const tooSmall = amount < Number(min);
  const tooLarge = max !== null && amount > Number(max);
  if (!tooSmall && !tooLarge) return null;
  return max === null ? `The minimum for this pair is ${min} ${t}` : `The amount must be between ${min} ${t} and ${max} ${t} for this pair`;
}
