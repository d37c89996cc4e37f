import { describe, expect, it } from 'vitest';
import {
  creditsText,
  formatAmount,
  formatCountdown,
  formatCreditAmount,
  formatCredits,
  formatDate,
  formatSpend,
  formatUsdLabel,
  formatWhen,
} from './format';

describe('formatAmount', () => {
  it('always shows two decimals', () => {
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(12.5)).toBe('12.50');
    expect(formatAmount(1234.567)).toBe('1,234.57');
    expect(formatAmount(Number.NaN)).toBe('0.00');
  });
});

describe('the other formatters', () => {
  it('word credits, calendar dates, countdowns and missing moments', () => {
    expect(creditsText(1250)).toBe('12.50 credits');
    expect(formatDate('2026-11-18')).toBe('18 November 2026');
    expect(formatCountdown(61_001)).toBe('1:02');
    expect(formatWhen(null)).toBe('—');
  });
});

describe('amounts and figures, one formatter each', () => {
  it('shows credits with two decimals from cents or from whole units', () => {
    expect(formatCredits(1250)).toBe('12.50');
    expect(formatCredits(5)).toBe('0.05');
    expect(formatCreditAmount(19)).toBe('19.00');
    expect(formatCreditAmount(0.125)).toBe('0.13');
  });

  it('shows ad spend with three decimals, and five for less than a tenth of a cent', () => {
    expect(formatSpend(1_234_567)).toBe('12.346');
    expect(formatSpend(50)).toBe('0.00050');
    expect(formatSpend(0)).toBe('0.000');
  });

  it('writes the fee table’s dollars without Intl, grouped, cents only when there are some', () => {
    expect(formatUsdLabel(500)).toBe('$500');
    expect(formatUsdLabel(99.99)).toBe('$99.99');
    expect(formatUsdLabel(1000)).toBe('$1,000');
  });
});
