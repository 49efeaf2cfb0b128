import { describe, expect, it, vi } from 'vitest';
import { FIRST_CHUNK, inSlices, nearestFirst, paintInChunks } from './paint-in-chunks.ts';
import { HighlightPainter, type PaintedSpan } from './painter.ts';
import {
  anchorOf,
  blockIndexAt,
  blockSpansOf,
  boxAndHolders,
  FLING_SETTLE_MS,
  scrollReadDelay,
  type BlockLayout,
} from './use-margin-geometry.ts';
import { SCROLL_DEBOUNCE_MS } from '@margins/common';

function makeBook(paragraphs: number): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = Array.from(
    { length: paragraphs },
    (_, index) => `<p id="p-${index}">Paragraph ${index} of the <em>long</em> book.</p>`,
  ).join('\n');
  document.body.replaceChildren(box);
  return box;
}

/** One span on the first word of each paragraph. */
function spansOf(box: HTMLElement): PaintedSpan[] {
  const text = box.textContent!;
  const spans: PaintedSpan[] = [];
  for (let at = text.indexOf('Paragraph'); at !== -1; at = text.indexOf('Paragraph', at + 1)) {
    spans.push({ id: `s-${spans.length}`, start: at, end: at + 9, colour: spans.length });
  }
  return spans;
}

describe('highlights painted in chunks', () => {
  it('orders spans by their distance from the reading position', () => {
    const spans = [
      { id: 'far', start: 900, end: 910, colour: 0 },
      { id: 'before', start: 80, end: 95, colour: 0 },
      { id: 'here', start: 95, end: 120, colour: 0 },
      { id: 'after', start: 130, end: 140, colour: 0 },
    ];
    expect(nearestFirst(spans, 100).map((span) => span.id)).toEqual([
      'here',
      'before',
      'after',
      'far',
    ]);
  });

  it('draws the nearest ones at once and the rest later, keeping what is drawn', async () => {
    vi.useFakeTimers();
    try {
      const box = makeBook(300);
      const text = box.textContent;
      const painter = new HighlightPainter(box);
      const spans = spansOf(box);
      const middle = spans[150]!.start;
      const onStep = vi.fn();
      const onDone = vi.fn();
      paintInChunks(painter, spans, () => middle, onStep, onDone);
      // Before anything idle has run: the FIRST_CHUNK around the reading position.
      expect(painter.ids).toHaveLength(FIRST_CHUNK);
      expect(painter.ids).toContain('s-150');
      expect(painter.ids).not.toContain('s-0');
      expect(onDone).not.toHaveBeenCalled();
      expect(onStep).toHaveBeenLastCalledWith(false);
      await vi.runAllTimersAsync();
      expect(onDone).toHaveBeenCalledOnce();
      // Only the last step says it is the last (the margin measures again then).
      expect(onStep.mock.calls.filter(([last]) => last)).toHaveLength(1);
      expect(onStep).toHaveBeenLastCalledWith(true);
      expect(new Set(painter.ids)).toEqual(new Set(spans.map((span) => span.id)));
      expect(box.querySelectorAll('mark[data-hl]')).toHaveLength(300);
      expect(box.textContent).toBe(text);

      // A new sync (the active thread changed) restyles at once and redraws nothing.
      const active = spans.map((span) => ({ ...span, active: span.id === 's-7' }));
      const cancel = paintInChunks(painter, active, () => 0, onStep, onDone);
      expect(box.querySelector('mark[data-hl="s-7"]')!.classList).toContain('hl-active');
      expect(onDone).toHaveBeenCalledTimes(2);
      cancel();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops when cancelled (a newer sync takes over)', async () => {
    vi.useFakeTimers();
    try {
      const box = makeBook(200);
      const painter = new HighlightPainter(box);
      const onDone = vi.fn();
      const cancel = paintInChunks(painter, spansOf(box), () => 0, vi.fn(), onDone);
      cancel();
      await vi.runAllTimersAsync();
      expect(painter.ids).toHaveLength(FIRST_CHUNK);
      expect(onDone).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('margin places from block offsets', () => {
  it('reads the blocks with their text positions, as the document model counts them', () => {
    const box = makeBook(3);
    const { elements, starts, ends } = blockSpansOf(box);
    const text = box.textContent!;
    expect(elements.map((element) => element.id)).toEqual(['p-0', 'p-1', 'p-2']);
    for (const [index, element] of elements.entries()) {
      expect(text.slice(starts[index], ends[index])).toBe(element.textContent);
    }
    expect(blockIndexAt(starts, 0)).toBe(0);
    expect(blockIndexAt(starts, starts[1]!)).toBe(1);
    expect(blockIndexAt(starts, starts[1]! - 1)).toBe(0);
    expect(blockIndexAt(starts, text.length)).toBe(2);
  });

  it('places a passage at its block plus its measured offset, else its share of the block', () => {
    const layout: BlockLayout = {
      starts: [0, 100, 300],
      ends: [99, 300, 400],
      tops: [10, 200, 600],
      heights: [150, 300, 100],
      width: 600,
    };
    expect(anchorOf(layout, 100)).toBe(200);
    expect(anchorOf(layout, 100, 42)).toBe(242);
    // Half way through the second block's text: a little above half its height.
    expect(anchorOf(layout, 200)).toBe(Math.round(200 + 0.5 * 0.9 * 300));
    expect(anchorOf(layout, 350)).toBeGreaterThanOrEqual(600);
  });

  it('watches the box and what holds it up to the margin layer: the text moves when they grow', () => {
    document.body.innerHTML = `
      <div id="grid">
        <article id="article"><header>Title</header><div id="wrap"><div id="box"></div></div></article>
        <aside><div id="layer"></div></aside>
      </div>`;
    const byId = (id: string) => document.getElementById(id);
    expect(boxAndHolders(byId('box'), byId('layer')).map((element) => element.id)).toEqual([
      'box',
      'wrap',
      'article',
    ]);
    expect(boxAndHolders(null, byId('layer'))).toEqual([]);
  });

  it('reads the window 16 ms after a scroll, and after a fling once it slows', () => {
    const screen = 900;
    // Reading: 15 px a frame, a wheel notch, a jump from the contents after a pause.
    expect(scrollReadDelay({ y: 0, at: 0 }, { y: 15, at: 16.7 }, screen)).toBe(SCROLL_DEBOUNCE_MS);
    expect(scrollReadDelay({ y: 0, at: 0 }, { y: 100, at: 50 }, screen)).toBe(SCROLL_DEBOUNCE_MS);
    expect(scrollReadDelay({ y: 0, at: 0 }, { y: 90_000, at: 60_000 }, screen)).toBe(
      SCROLL_DEBOUNCE_MS,
    );
    // A fling: ~230 px a frame (the whole book in 2,000 frames), either way.
    expect(scrollReadDelay({ y: 1000, at: 0 }, { y: 1230, at: 16.7 }, screen)).toBe(
      FLING_SETTLE_MS,
    );
    expect(scrollReadDelay({ y: 1230, at: 16.7 }, { y: 1000, at: 33.4 }, screen)).toBe(
      FLING_SETTLE_MS,
    );
    // Two events in the same millisecond count as one apart, not as infinitely fast.
    expect(scrollReadDelay({ y: 0, at: 5 }, { y: 1, at: 5 }, screen)).toBe(SCROLL_DEBOUNCE_MS);
  });
});

describe('the drawing steps after the first', () => {
  it('run in a task of their own soon, with a short deadline, and can be cancelled', async () => {
    vi.useFakeTimers();
    try {
      const seen: number[] = [];
      inSlices((deadline) => seen.push(deadline.timeRemaining()));
      const cancelled = vi.fn();
      inSlices(cancelled)();
      expect(seen).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeGreaterThan(0);
      expect(seen[0]).toBeLessThanOrEqual(50);
      expect(cancelled).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
