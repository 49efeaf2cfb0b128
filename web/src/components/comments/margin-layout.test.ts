import { describe, expect, it } from 'vitest';
import { mountBand, visibleCards, type CardBox } from './margin-layout.ts';

const card = (id: string, anchor: number): CardBox => ({ id, anchor, height: 100 });

describe('the margin cards mounted', () => {
  const cards = [card('a', 0), card('b', 1_000), card('c', 5_000)];
  const tops = new Map(cards.map((box) => [box.id, box.anchor]));
  const view = { top: 900, bottom: 1_800 };

  it('are those near the window, with the counts above and below', () => {
    const { shown, above, below } = visibleCards(cards, tops, view, 200);
    expect(shown.map((box) => box.id)).toEqual(['b']);
    expect(above.map((box) => box.id)).toEqual(['a']);
    expect(below.map((box) => box.id)).toEqual(['c']);
  });

  it('keep the active card (its open editor) mounted far from the window', () => {
    const { shown, below } = visibleCards(cards, tops, view, 200, 'c');
    expect(shown.map((box) => box.id)).toEqual(['b', 'c']);
    expect(below.map((box) => box.id)).toEqual(['c']);
  });
});

describe('the band of mounted cards', () => {
  it('is the window and a screen either side', () => {
    expect(mountBand(null, { top: 1_000, bottom: 1_900 })).toEqual({ top: 100, bottom: 2_800 });
  });

  it('stays while the window is half a screen inside it, then moves', () => {
    const band = mountBand(null, { top: 1_000, bottom: 1_900 });
    expect(mountBand(band, { top: 1_400, bottom: 2_300 })).toBe(band);
    expect(mountBand(band, { top: 600, bottom: 1_500 })).toBe(band);
    expect(mountBand(band, { top: 1_500, bottom: 2_400 })).toEqual({ top: 600, bottom: 3_300 });
  });
});
