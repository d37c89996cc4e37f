/** The message for an amount outside a pair's limits, as the server words it; null when inside. */
export function rangeProblem(amount: number, min: string, max: string | null, ticker: string): string | null {
  const t = ticker.toUpperCase();
  const tooSmall = amount < Number(min);
  const tooLarge = max !== null && amount > Number(max);
  if (!tooSmall && !tooLarge) return null;
  return max === null ? `The minimum for this pair is ${min} ${t}` : `The amount must be between ${min} ${t} and ${max} ${t} for this pair`;
}
