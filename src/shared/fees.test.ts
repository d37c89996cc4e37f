import { describe, expect, it } from 'vitest';
import { calculateFee, paymentCentsForCredits } from './fees.js';

describe('paymentCentsForCredits', () => {
  it('answers the smallest payment whose credits after the fee cover the amount', () => {
    for (const wanted of [1, 99, 234, 500, 9_499, 9_500, 10_000, 10_309, 49_999, 50_000, 123_456, 1_000_000]) {
      const pay = paymentCentsForCredits(wanted);
      expect(calculateFee(pay).creditsCents, `credits of ${pay} for ${wanted}`).toBeGreaterThanOrEqual(wanted);
      expect(calculateFee(pay - 1).creditsCents, `one cent less than ${pay} for ${wanted}`).toBeLessThan(wanted);
    }
  });

  it('answers 0 for nothing wanted', () => {
    expect(paymentCentsForCredits(0)).toBe(0);
    expect(paymentCentsForCredits(-5)).toBe(0);
  });
});
