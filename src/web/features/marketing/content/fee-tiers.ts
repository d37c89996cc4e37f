import { FEE_TIERS } from '#shared/constants';

export interface FeeTierRow {
  /** "Below $100", "$100 to $499.99", "$500 or more". */
  range: string;
  percent: number;
}

/**
 * "$500", "$99.99", "$1,000". Plain string work rather than toLocaleString: the home page renders this
 * table in its first render, and a page's first Intl number format costs about 30 ms in desktop
 * Chromium while ICU loads its data (several times that on a slow phone).
 */
function usd(value: number): string {
  const [whole = '', cents] = (Number.isInteger(value) ? String(value) : value.toFixed(2)).split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents ? `.${cents}` : ''}`;
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
    if (!next) range = `${usd(tier.minUsd)} or more`;
    else if (tier.minUsd === 0) range = `Below ${usd(next.minUsd)}`;
    else range = `${usd(tier.minUsd)} to ${usd(next.minUsd - 0.01)}`;
    return { range, percent: tier.percent };
  });
}

/** "5% below $100, 3% for $100 to $499.99, 1% for $500 or more" for running text. */
export function feeTierSentence(): string {
  return feeTierRows()
    .map((row) => `${row.percent}% ${row.range.startsWith('Below') ? row.range.toLowerCase() : `for ${row.range}`}`)
    .join(', ');
}
