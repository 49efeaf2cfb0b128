import { useEffect, useState, type RefObject } from 'react';

/** Height of the sticky site header, which covers the top of the text. */
export const HEADER_OFFSET_PX = 64;

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
export function blockInBand(blocks: readonly HTMLElement[], viewportHeight: number): number {
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

/**
 * The block being read: the first block in the reading band (under the header, the upper
 * third of the window), found again one animation frame after each scroll. Stays put between
 * blocks. Returns -1 until the text is there. (Not an IntersectionObserver on every block: on
 * a book's 3,000 blocks the browser's own intersection work took more than a frame.)
 */
export function useReadingPosition(boxRef: RefObject<HTMLElement | null>, html: string): number {
  const [blockIndex, setBlockIndex] = useState(-1);

  useEffect(() => {
    const blocks = blocksOf(boxRef.current);
    if (blocks.length === 0) {
      setBlockIndex(-1);
      return;
    }
    setBlockIndex(0);
    let frame = 0;
    const measure = () => {
      frame = 0;
      const index = blockInBand(blocks, window.innerHeight);
      if (index >= 0) setBlockIndex(index);
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(measure);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (frame) window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [boxRef, html]);

  return blockIndex;
}

/** How far through the text the reader is, 0…1, from the scroll position. */
export function useReadingProgress(boxRef: RefObject<HTMLElement | null>, html: string): number {
  const [fraction, setFraction] = useState(0);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const rect = box.getBoundingClientRect();
      const readable = rect.height - (window.innerHeight - HEADER_OFFSET_PX);
      const done = HEADER_OFFSET_PX - rect.top;
      const next = readable <= 0 ? (rect.top < window.innerHeight ? 1 : 0) : done / readable;
      setFraction(Math.min(1, Math.max(0, next)));
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (frame) window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [boxRef, html]);

  return fraction;
}
