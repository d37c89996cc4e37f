/** Credits are shown with exactly two decimals (docs/product.md#credits): 0 → "0.00", 12.5 → "12.50". */
export function formatCredits(credits: number): string {
  return (Number.isFinite(credits) ? credits : 0).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
