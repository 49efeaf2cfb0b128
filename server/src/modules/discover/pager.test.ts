import { describe, expect, it } from 'vitest';
import { iterPages } from './pager.ts';

describe('iterPages', () => {
  it.each([
    [1, 1, [1]],
    [1, 5, [1, 2, 3, 4, 5]],
    [9, 41, [1, 2, null, 7, 8, 9, 10, 11, 12, 13, null, 40, 41]],
    [1, 41, [1, 2, 3, 4, 5, null, 40, 41]],
    [41, 41, [1, 2, null, 39, 40, 41]],
  ])('page %i of %i', (current, last, expected) => {
    expect(iterPages(current, last)).toEqual(expected);
  });
});
