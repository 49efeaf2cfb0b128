import { describe, expect, it } from 'vitest';
import { sparklinePoints } from './sparkline.tsx';

describe('sparklinePoints', () => {
  it('spreads the days over the width and scales the highest count to the top', () => {
    expect(sparklinePoints([0, 5, 10], 100, 22)).toBe('0.0,21.0 50.0,11.0 100.0,1.0');
  });

  it('draws all-zero days flat at the bottom instead of dividing by zero', () => {
    expect(sparklinePoints([0, 0], 10, 12)).toBe('0.0,11.0 10.0,11.0');
  });

  it('puts a single day in the middle and nothing for no days', () => {
    expect(sparklinePoints([3], 40, 12)).toBe('20.0,1.0');
    expect(sparklinePoints([], 40, 12)).toBe('');
  });
});
