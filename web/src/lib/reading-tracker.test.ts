import { describe, expect, it } from 'vitest';
import { READING_IDLE_MS } from '@margins/common';
import { ReadingTracker } from './reading-tracker.ts';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ReadingTracker', () => {
  it('counts visible, active time, shared between the blocks on screen', () => {
    const time = clock();
    const tracker = new ReadingTracker(time.now);
    tracker.setBlockVisible('a', true);
    tracker.setBlockVisible('b', true);
    time.advance(10_000);
    tracker.setBlockVisible('a', false);
    time.advance(4_000);
    expect(tracker.takeFinished()).toEqual([{ id: 'a', ms: 5_000 }]);
    // b is still on screen: reported when it leaves, or when the page goes.
    expect(tracker.takeAll()).toEqual([{ id: 'b', ms: 9_000 }]);
  });

  it('stops counting when the reader is idle, and again from their next move', () => {
    const time = clock();
    const tracker = new ReadingTracker(time.now);
    tracker.setBlockVisible('a', true);
    time.advance(READING_IDLE_MS + 600_000); // walked away for ten minutes
    tracker.activity();
    time.advance(5_000);
    expect(tracker.takeAll()).toEqual([{ id: 'a', ms: READING_IDLE_MS + 5_000 }]);
  });

  it('counts nothing while the tab is hidden', () => {
    const time = clock();
    const tracker = new ReadingTracker(time.now);
    tracker.setBlockVisible('a', true);
    time.advance(3_000);
    tracker.setPageVisible(false);
    time.advance(30_000);
    tracker.setPageVisible(true);
    time.advance(2_000);
    expect(tracker.takeAll()).toEqual([{ id: 'a', ms: 5_000 }]);
  });

  it('does not report a block scrolled past, and reports each stay once', () => {
    const time = clock();
    const tracker = new ReadingTracker(time.now);
    tracker.setBlockVisible('a', true);
    time.advance(300);
    tracker.setBlockVisible('a', false);
    expect(tracker.takeFinished()).toEqual([]);
    tracker.setBlockVisible('b', true);
    time.advance(2_000);
    tracker.setBlockVisible('b', false);
    expect(tracker.takeFinished()).toEqual([{ id: 'b', ms: 2_000 }]);
    expect(tracker.takeFinished()).toEqual([]);
  });

  it('decides "scrolled past" by the time on screen, not the shared time', () => {
    const time = clock();
    const tracker = new ReadingTracker(time.now);
    for (const id of ['a', 'b', 'c', 'd']) tracker.setBlockVisible(id, true);
    time.advance(2_000);
    expect(tracker.takeAll().map((block) => block.ms)).toEqual([500, 500, 500, 500]);
  });
});
