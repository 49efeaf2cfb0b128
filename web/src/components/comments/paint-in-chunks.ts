import type { DocumentModel } from './anchoring.ts';
import type { HighlightPainter, PaintedSpan } from './painter.ts';

/** Highlights drawn at once, before the first paint: the ones around the reading position. */
export const FIRST_CHUNK = 60;
/** New highlights this few (live arrivals) are drawn at once, whatever else is pending. */
const LIVE_BATCH = 8;
/** Highlights drawn per step after the first (each step walks the box's text nodes once). */
const IDLE_CHUNK = 200;
/** Another chunk is drawn in the same slice only while this much of it is left. */
const MIN_STEP_MS = 12;

type IdleDeadline = { timeRemaining: () => number };

/**
 * Runs `work` when the main thread is idle (requestIdleCallback, else a timeout); returns a
 * cancel function.
 */
export function whenIdle(work: (deadline: IdleDeadline) => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: 500 });
    return () => window.cancelIdleCallback(handle);
  }
  const started = performance.now();
  const timer = window.setTimeout(
    () => work({ timeRemaining: () => Math.max(0, 50 - (performance.now() - started)) }),
    16,
  );
  return () => window.clearTimeout(timer);
}

/**
 * How long one drawing slice may run before it gives the page back (input, frames). A step of
 * 200 highlights takes ~5 ms in a book; each frame between two slices restyles the marks drawn
 * so far (~20–30 ms), so at 30 ms a book's backlog took ~150 ms to draw, at 50 ms ~90 ms.
 */
const SLICE_MS = 50;

/** The Prioritized Task Scheduling API, where the browser has it (Chromium does). */
type TaskScheduler = {
  postTask: (task: () => void, options: { signal: AbortSignal }) => Promise<unknown>;
};

/**
 * Runs `work` in a task of its own soon (`scheduler.postTask`, else a timeout), with a deadline
 * SLICE_MS from its start; returns a cancel function. Not idle time: while a book's page keeps
 * the main thread busy (its requests, the socket's, frames), idle periods came rarely and the
 * last highlights waited for them; a slice this short keeps every frame and input between two
 * steps on time.
 */
export function inSlices(work: (deadline: IdleDeadline) => void): () => void {
  const run = () => {
    const started = performance.now();
    work({ timeRemaining: () => Math.max(0, SLICE_MS - (performance.now() - started)) });
  };
  const scheduler = (window as { scheduler?: Partial<TaskScheduler> }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    const controller = new AbortController();
    scheduler.postTask(run, { signal: controller.signal }).catch((error: unknown) => {
      // Cancelled: nothing to say. A failure of the work itself is reported as a timeout's is.
      if (!controller.signal.aborted)
        window.setTimeout(() => {
          throw error;
        });
    });
    return () => controller.abort();
  }
  const timer = window.setTimeout(run, 0);
  return () => window.clearTimeout(timer);
}

/**
 * The document position of the text at the top of the window: a binary search over the
 * model's blocks (a dozen layout reads, not one per block).
 */
export function readingPositionOf(model: DocumentModel, doc: Document): number {
  const { blocks } = model;
  let low = 0;
  let high = blocks.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const element = doc.getElementById(blocks[middle]!.id);
    if (!element) return 0;
    if (element.getBoundingClientRect().bottom < 0) {
      low = middle + 1;
    } else {
      found = blocks[middle]!.start;
      high = middle - 1;
    }
  }
  return found;
}

/** The spans nearest `at` first (what the reader sees now, then outward). */
export function nearestFirst(spans: readonly PaintedSpan[], at: number): PaintedSpan[] {
  const distance = (span: PaintedSpan) =>
    span.end < at ? at - span.end : span.start > at ? span.start - at : 0;
  return [...spans].sort((a, b) => distance(a) - distance(b));
}

/**
 * Draws `wanted` in steps: what is drawn already (restyled), the draft, the active one and, on
 * a first drawing, the FIRST_CHUNK nearest the reading position; the rest in short slices
 * (inSlices), nearest the reading position first, so a long book's 2,000 highlights never block
 * the reader. Calls `onStep` after each step (with whether it was the last) and `onDone` once
 * everything is drawn. Returns a cancel function (a newer sync takes over).
 */
export function paintInChunks(
  painter: HighlightPainter,
  wanted: readonly PaintedSpan[],
  readingPosition: () => number,
  onStep: (last: boolean) => void,
  onDone: () => void,
): () => void {
  const drawn = new Set(painter.ids);
  const shown: PaintedSpan[] = [];
  let rest: PaintedSpan[] = [];
  for (const span of wanted) {
    if (drawn.has(span.id) || span.pending || span.active) shown.push(span);
    else rest.push(span);
  }
  // The first chunk only on a first drawing (or for a few live arrivals): a redraw while a
  // backlog waits (the data refreshed, a thread opened) leaves the backlog to the slices.
  const atOnce = drawn.size === 0 || rest.length <= LIVE_BATCH ? FIRST_CHUNK : 0;
  if (atOnce > 0 && rest.length > atOnce) rest = nearestFirst(rest, readingPosition());
  shown.push(...rest.splice(0, atOnce));
  painter.sync(shown);
  onStep(rest.length === 0);
  if (rest.length === 0) {
    onDone();
    return () => undefined;
  }
  let cancel = inSlices(function step(deadline) {
    // The reader may have jumped since: what is nearest them now comes first.
    if (rest.length > IDLE_CHUNK) rest = nearestFirst(rest, readingPosition());
    do {
      shown.push(...rest.splice(0, IDLE_CHUNK));
      painter.sync(shown);
    } while (rest.length > 0 && deadline.timeRemaining() > MIN_STEP_MS);
    onStep(rest.length === 0);
    if (rest.length === 0) onDone();
    else cancel = inSlices(step);
  });
  return () => cancel();
}
