import { t } from '@lingui/core/macro';
import { FEE_TIERS } from '#shared/constants';
import { currentLocale } from '#web/features/language';
import { formatLocaleMoney, formatUsdLabel } from '#web/lib/format';

export interface FeeTierRow {
  /** "Below $100", "$100 to $499.99", "$500 or more". */
  range: string;
  percent: number;
}

/**
 * A dollar amount as the page's language writes it. English keeps its short form ("$100", not
 * "$100.00"), which the pages and their tests read.
 */
function usd(value: number): string {
  return currentLocale() === 'en' ? formatUsdLabel(value) : formatLocaleMoney(Math.round(value * 100), 'USD');
}

interface Tier {
  percent: number;
  from: number;
  /** The next tier's start; none for the highest tier. */
  next?: number;
}

function tiers(): Tier[] {
  const ascending = [...FEE_TIERS].sort((a, b) => a.minUsd - b.minUsd);
  return ascending.map((tier, index) => ({ percent: tier.percent, from: tier.minUsd, next: ascending[index + 1]?.minUsd }));
}

/**
 * The processing-fee tiers as readable rows, lowest amounts first, in the page's language. Built from the
 * same FEE_TIERS the fee is computed with, so the pages and terms can never quote a different fee than is charged.
 */
export function feeTierRows(): FeeTierRow[] {
  return tiers().map(({ percent, from, next }) => {
    const amount = usd(from);
    let range: string;
    if (next === undefined) range = t`${amount} or more`;
    else if (from === 0) {
      const limit = usd(next);
      range = t`Below ${limit}`;
    } else {
      const to = usd(next - 0.01);
      range = t`${amount} to ${to}`;
    }
    return { range, percent };
  });
}

/** "5% below $100, 3% for $100 to $499.99, 1% for $500 or more" for running text. */
export function feeTierSentence(): string {
  return tiers()
    .map(({ percent, from, next }) => {
      const amount = usd(from);
      if (next === undefined) return t`${percent}% for ${amount} or more`;
      if (from === 0) {
        const limit = usd(next);
        return t`${percent}% below ${limit}`;
      }
      const to = usd(next - 0.01);
      return t`${percent}% for ${amount} to ${to}`;
    })
    .join(', ');
}
