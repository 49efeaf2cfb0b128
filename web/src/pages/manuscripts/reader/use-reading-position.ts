import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { afterNextFrame } from '../../../lib/frames.ts';

/** Height of the sticky site header, which covers the top of the text. */
const HEADER_OFFSET_PX = 64;

/** The blocks of the text: the reader box's children (each has a stable id). */
export function blocksOf(box: HTMLElement | null): HTMLElement[] {
  return box ? (Array.from(box.children) as HTMLElement[]) : [];
}

/** The reading band ends a third of the way down the window. */
const BAND_END = 0.34;

/**
 * The index of the first block reaching into the reading band (under the header, the upper
 * third of the window), or -1 when none does (a gap between blocks): a binary search, a dozen
 * layout reads, never one per block.
 */
function blockInBand(blocks: readonly HTMLElement[], viewportHeight: number): number {
  let low = 0;
  let high = blocks.length - 1;
  let first = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (blocks[middle]!.getBoundingClientRect().bottom > HEADER_OFFSET_PX) {
      first = middle;
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  if (first === -1) return -1;
  return blocks[first]!.getBoundingClientRect().top < viewportHeight * BAND_END ? first : -1;
}

/** Where the reader is: the block being read (-1 until the text is there) and how far, 0…1. */
export interface ReadingPosition {
  blockIndex: number;
  progress: number;
}

/**
 * The reading position as a store the page's parts subscribe to with a selector
 * (usePositionValue): a move of the position renders again only the parts whose selected value
 * changed — on a book the block changes almost every scrolled frame, the chapter rarely.
 */
export interface PositionStore {
  get(): ReadingPosition;
  subscribe(listener: () => void): () => void;
}

/** How far through the text, from the box's place in the window. */
function progressOf(box: HTMLElement): number {
  const rect = box.getBoundingClientRect();
  const readable = rect.height - (window.innerHeight - HEADER_OFFSET_PX);
  const done = HEADER_OFFSET_PX - rect.top;
  const next = readable <= 0 ? (rect.top < window.innerHeight ? 1 : 0) : done / readable;
  return Math.min(1, Math.max(0, next));
}

/**
 * The block being read — the first block in the reading band (under the header, the upper
 * third of the window), which stays put between blocks — and how far through the text the
 * reader is, found again one animation frame after each scroll or resize (passive listeners;
 * a binary search, a dozen layout reads). Not an IntersectionObserver on every block: on a
 * book's 3,000 blocks the browser's own intersection work took more than a frame.
 */
export function useReadingPositionStore(
  boxRef: RefObject<HTMLElement | null>,
  html: string,
): PositionStore {
  const [store] = useState(() => {
    let position: ReadingPosition = { blockIndex: -1, progress: 0 };
    const listeners = new Set<() => void>();
    return {
      get: () => position,
      set(next: ReadingPosition) {
        if (next.blockIndex === position.blockIndex && next.progress === position.progress) return;
        position = next;
        for (const listener of listeners) listener();
      },
      subscribe(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  });

  useEffect(() => {
    const box = boxRef.current;
    const blocks = blocksOf(box);
    if (!box || blocks.length === 0) {
      store.set({ blockIndex: -1, progress: 0 });
      return;
    }
    // Measured after the next frame, not here: a new text's first layout (a book's thousands
    // of blocks) is then the frame's own work, not forced inside the commit that inserted it,
    // one long task of both (issue 18).
    store.set({ blockIndex: 0, progress: store.get().progress });
    let frame = 0;
    const measure = () => {
      frame = 0;
      const index = blockInBand(blocks, window.innerHeight);
      store.set({
        blockIndex: index >= 0 ? index : store.get().blockIndex,
        progress: progressOf(box),
      });
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(measure);
    };
    const cancelFirst = afterNextFrame(measure);
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelFirst();
      if (frame) window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [boxRef, html, store]);

  return store;
}

/** A value selected from the reading position: renders again only when it changes. */
export function usePositionValue<T extends string | number | boolean | null>(
  store: PositionStore,
  select: (position: ReadingPosition) => T,
): T {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.get()),
  );
}

/** Progress in steps of 0.1 % (what the bar, the percentages and the reports can show). */
export const progressStep = (position: ReadingPosition) =>
  Math.round(position.progress * 1000) / 1000;
