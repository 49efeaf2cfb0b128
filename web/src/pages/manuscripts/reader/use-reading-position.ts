import { useEffect, useState, type RefObject } from 'react';

/** Height of the sticky site header, which covers the top of the text. */
export const HEADER_OFFSET_PX = 64;

/** The blocks of the text: the reader box's children (each has a stable id). */
export function blocksOf(box: HTMLElement | null): HTMLElement[] {
  return box ? (Array.from(box.children) as HTMLElement[]) : [];
}

/**
 * The block being read: the first block in the reading band (under the header, the upper
 * third of the window), followed with an IntersectionObserver. Stays put between blocks.
 * Returns -1 until the text is there.
 */
export function useReadingPosition(boxRef: RefObject<HTMLElement | null>, html: string): number {
  const [blockIndex, setBlockIndex] = useState(-1);

  useEffect(() => {
    const box = boxRef.current;
    const blocks = blocksOf(box);
    if (blocks.length === 0) {
      setBlockIndex(-1);
      return;
    }
    setBlockIndex(0);
    if (typeof IntersectionObserver === 'undefined') return;
    const indexOf = new Map(blocks.map((block, index) => [block, index]));
    const inBand = new Set<number>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const index = indexOf.get(entry.target as HTMLElement);
          if (index === undefined) continue;
          if (entry.isIntersecting) inBand.add(index);
          else inBand.delete(index);
        }
        if (inBand.size > 0) setBlockIndex(Math.min(...inBand));
      },
      { rootMargin: `-${HEADER_OFFSET_PX}px 0px -66% 0px`, threshold: 0 },
    );
    for (const block of blocks) observer.observe(block);
    return () => observer.disconnect();
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
