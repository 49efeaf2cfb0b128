import { useEffect, type RefObject } from 'react';
import { whenIdle } from '../../../components/comments/paint-in-chunks.ts';
import { blocksOf } from './use-reading-position.ts';

/** Blocks handed to full layout per idle step: a few dozen milliseconds of layout each. */
const BLOCKS_PER_STEP = 75;

/** Marked when every block of the text is handed to layout (a benchmark's profile waits for it). */
export const LAYOUT_DONE_MARK = 'margins:layout-done';

/**
 * A book's text laid out a part at a time (issue 18). The box opens with `data-layout="lazy"`:
 * its blocks skip layout while out of view (`content-visibility: auto`, reader-book.css), so
 * the first screen paints without laying out the whole book. Then, in idle time, the blocks
 * are marked laid out a step at a time from the top. Once all are, scrolling never pays for
 * content-visibility's per-frame bookkeeping, nor for the box growing under every observer of
 * its size.
 */
export function useProgressiveLayout(boxRef: RefObject<HTMLElement | null>, html: string): void {
  useEffect(() => {
    const box = boxRef.current;
    if (!box || !html) return;
    // A new text starts lazy again (React sets the attribute only when its value changes).
    box.dataset.layout = 'lazy';
    const blocks = blocksOf(box);
    let next = 0;
    let cancel = whenIdle(function step() {
      const end = Math.min(blocks.length, next + BLOCKS_PER_STEP);
      for (; next < end; next++) blocks[next]!.dataset.laidOut = '';
      // The marks stay: taking them (or the box's lazy mode) off would restyle every block.
      // Their layout is left to the next frame, where the browser keeps the text in view in
      // place (scroll anchoring); a layout forced here is not anchored, and steps sized to
      // fit idle time by forcing it moved the text under the reader.
      if (next < blocks.length) cancel = whenIdle(step);
      else performance.mark?.(LAYOUT_DONE_MARK);
    });
    return () => cancel();
  }, [boxRef, html]);
}
