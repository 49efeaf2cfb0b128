import { describe, expect, it } from 'vitest';
import { nextStepSize } from './use-progressive-layout.ts';

describe('the size of a progressive layout step', () => {
  it('grows on fast frames, at most doubling, up to its cap', () => {
    expect(nextStepSize(75, 10)).toBe(150);
    expect(nextStepSize(800, 5)).toBe(1200);
  });

  it('shrinks to what fits a 40 ms frame at the rate measured, never below its floor', () => {
    expect(nextStepSize(300, 120)).toBe(100);
    expect(nextStepSize(75, 40)).toBe(75);
    expect(nextStepSize(75, 2000)).toBe(25);
  });
});
