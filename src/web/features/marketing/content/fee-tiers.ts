import { FEE_TIERS } from '#shared/constants';
import { formatUsdLabel } from '#web/lib/format';

export interface FeeTierRow {
  /** "Below $100", "$100 to $499.99", "$500 or more". */
  range: string;
  percent: number;
}

/**
 * The processing-fee tiers as readable rows, lowest amounts first. Built from the same FEE_TIERS the
 * fee is computed with, so the pages and terms can never quote a different fee than is charged.
 */
export function feeTierRows(): FeeTierRow[] {
  const ascending = [...FEE_TIERS].sort((a, b) => a.minUsd - b.minUsd);
  return ascending.map((tier, index) => {
    const next = ascending[index + 1];
    let range: string;
    if (!next) range = `${formatUsdLabel(tier.minUsd)} or more`;
    else if (tier.minUsd === 0) range = `Below ${formatUsdLabel(next.minUsd)}`;
    else range = `${formatUsdLabel(tier.minUsd)} to ${formatUsdLabel(next.minUsd - 0.01)}`;
    return { range, percent: tier.percent };
  });
}

/** "5% below $100, 3% for $100 to $499.99, 1% for $500 or more" for running text. */
export function feeTierSentence(): string {
  return feeTierRows()
    .map((row) => `${row.percent}% ${row.range.startsWith('Below') ? row.range.toLowerCase() : `for ${row.range}`}`)
    .join(', ');
}
