import { useEffect, type RefObject } from 'react';
import { whenIdle } from '../../../components/comments/paint-in-chunks.ts';
import { afterNextFrame } from '../../../lib/frames.ts';
import { forgetLaidOut, markLaidOut } from '../../../lib/laid-out.ts';
import { blocksOf } from './use-reading-position.ts';

/** Blocks handed to full layout by the first idle step (a few dozen milliseconds of layout). */
const FIRST_STEP_BLOCKS = 75;
/** The frame time a step's layout may take: well under a long task (issue 18: none > 200 ms). */
const STEP_FRAME_MS = 40;
/** Bounds of a step, whatever one frame measured (a frame can be slow for other reasons). */
const MIN_STEP_BLOCKS = 25;
const MAX_STEP_BLOCKS = 1200;
/**
 * The longest the steps wait for the highlights being drawn (the box's data-highlights is
 * "painting", use-highlight-layer.ts): what a reader is waiting for comes first, but a drawing
 * that never ends does not hold the layout back.
 */
const YIELD_TO_PAINT_MS = 3000;

/** Marked when every block of the text is handed to layout (a benchmark's profile waits for it). */
const LAYOUT_DONE_MARK = 'margins:layout-done';

/**
 * The next step's size from how long the last step's frame took: as many blocks as fit in
 * STEP_FRAME_MS at the rate measured, at most doubling (one fast frame proves little).
 */
export function nextStepSize(blocks: number, frameMs: number): number {
  const fitting = Math.floor((blocks * STEP_FRAME_MS) / Math.max(1, frameMs));
  return Math.min(MAX_STEP_BLOCKS, Math.max(MIN_STEP_BLOCKS, Math.min(blocks * 2, fitting)));
}

/**
 * A book's text laid out a part at a time (issue 18). The box opens with `data-layout="lazy"`:
 * its blocks skip layout while out of view (`content-visibility: auto`, reader-book.css), so
 * the first screen paints without laying out the whole book. Then, in idle time, the blocks
 * are marked laid out a step at a time from the top, each step sized by how long the frame
 * after the last one took: on a fast or idle machine a few big steps, on a busy one small
 * ones. Once all are, scrolling never pays for content-visibility's per-frame bookkeeping, nor
 * for the box growing under every observer of its size.
 */
export function useProgressiveLayout(boxRef: RefObject<HTMLElement | null>, html: string): void {
  useEffect(() => {
    const box = boxRef.current;
    if (!box || !html) return;
    // A new text starts lazy again (React sets the attribute only when its value changes).
    box.dataset.layout = 'lazy';
    const blocks = blocksOf(box);
    let next = 0;
    let size = FIRST_STEP_BLOCKS;
    const started = performance.now();
    let cancel = whenIdle(function step() {
      // The highlights are drawn in idle time too: while they are, this waits its turn, so
      // each of their steps has a whole idle period, not what a step's layout left of it.
      if (
        box.dataset.highlights === 'painting' &&
        performance.now() - started < YIELD_TO_PAINT_MS
      ) {
        cancel = whenIdle(step);
        return;
      }
      const end = Math.min(blocks.length, next + size);
      const count = end - next;
      for (; next < end; next++) blocks[next]!.dataset.laidOut = '';
      // The marks stay: taking them (or the box's lazy mode) off would restyle every block.
      // Their layout is left to the next frame, where the browser keeps the text in view in
      // place (scroll anchoring); a layout forced here is not anchored, and steps sized to
      // fit idle time by forcing it moved the text under the reader. So the step's cost is
      // read from that frame instead, and sizes the next step.
      if (next >= blocks.length) {
        performance.mark?.(LAYOUT_DONE_MARK);
        markLaidOut(box);
        return;
      }
      // The frame's rendering work (its style, layout and paint): from its animation callback
      // to the first task after it.
      cancel = afterNextFrame((frameStart) => {
        size = nextStepSize(count, performance.now() - frameStart);
        cancel = whenIdle(step);
      });
    });
    return () => {
      cancel();
      forgetLaidOut(box);
    };
  }, [boxRef, html]);
}
