import { describe, expect, it } from 'vitest';
import { lazy } from './lazy.ts';

describe('lazy', () => {
  it('makes the value on the first call only, and keeps it (a made undefined too)', () => {
    let made = 0;
    const value = lazy(() => {
      made += 1;
      return made === 1 ? undefined : 'again';
    });
    expect(made).toBe(0);
    expect(value()).toBeUndefined();
    expect(value()).toBeUndefined();
    expect(made).toBe(1);
  });
});
