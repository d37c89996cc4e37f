import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth.js';

describe('heapGrowthFlag', () => {
  it('limits the heap growth by default', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=2048'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("leaves the operator's own choice on node's command line alone", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=100'])).toBeNull();
    expect(heapGrowthFlag(['--inspect', '--heap_growing_percent=0'])).toBeNull();
  });

  it('is not fooled by a longer flag name', () => {
    expect(heapGrowthFlag(['--heap-growing-percentage=5'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });
});
