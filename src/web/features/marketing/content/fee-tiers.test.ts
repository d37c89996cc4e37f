import { describe, expect, it } from 'vitest';
import { feeTierRows, feeTierSentence } from './fee-tiers';

describe('fee tiers', () => {
  it('reads the tiers as dollar ranges, lowest first', () => {
    expect(feeTierRows()).toEqual([
      { range: 'Below $100', percent: 5 },
      { range: '$100 to $499.99', percent: 3 },
      { range: '$500 or more', percent: 1 },
    ]);
  });

  it('says the same in running text', () => {
    expect(feeTierSentence()).toBe('5% below $100, 3% for $100 to $499.99, 1% for $500 or more');
  });
});
