import { describe, expect, it } from 'vitest';
import { creditsText, formatAmount, formatCountdown, formatDate, formatWhen } from './format';

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
