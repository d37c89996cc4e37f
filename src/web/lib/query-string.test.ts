import { describe, expect, it } from 'vitest';
import { toQueryString } from './query-string';

describe('toQueryString', () => {
  it('keeps defined, non-empty values, encoded', () => {
    expect(toQueryString({ search: 'a b&c', page: 2, status: '', priority: undefined })).toBe('?search=a+b%26c&page=2');
  });
  it('answers an empty string when nothing is left', () => {
    expect(toQueryString({ status: '' })).toBe('');
  });
});
