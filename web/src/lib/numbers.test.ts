import { describe, expect, it } from 'vitest';
import { formatCount } from './numbers.ts';

describe('formatCount', () => {
  it('groups thousands with commas, as English does', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(150052)).toBe('150,052');
    expect(formatCount(1234567890)).toBe('1,234,567,890');
  });

  it('matches toLocaleString("en") for counts, signs and fractions', () => {
    for (const value of [1, 12, 123, 1234, 12345, 123456, 1234567, -4321, 1234.5]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en'));
    }
  });
});
