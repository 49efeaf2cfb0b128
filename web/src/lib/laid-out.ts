// Whether a reader box's text is laid out in full yet (issue 18): the reader lays a book out a
// part at a time (pages/manuscripts/reader/use-progressive-layout.ts); what reads every block's
// place (the heat strip) waits for the end of it.

/** Boxes whose every block has been handed to layout, and the event that says so. */
const laidOut = new WeakSet<HTMLElement>();
const LAID_OUT_EVENT = 'margins:laid-out';

/**
 * Runs `then` once every block of `box` has been handed to layout, at once if they have (or if
 * the box is not laid out a part at a time); returns a cancel function. For what reads every
 * block's place: reading a lazy block's offsetTop lays it out on the spot, and the heat strip's
 * reading them all made one long task of the whole book's layout (issue 18).
 */
export function whenLaidOut(box: HTMLElement, then: () => void): () => void {
  if (laidOut.has(box) || box.dataset.layout !== 'lazy') {
    then();
    return () => undefined;
  }
  box.addEventListener(LAID_OUT_EVENT, then, { once: true });
  return () => box.removeEventListener(LAID_OUT_EVENT, then);
}

/** Records that every block of `box` is laid out, and tells those waiting. */
export function markLaidOut(box: HTMLElement): void {
  laidOut.add(box);
  box.dispatchEvent(new Event(LAID_OUT_EVENT));
}

/** Forgets `box` (its text is replaced: it is laid out a part at a time again). */
export function forgetLaidOut(box: HTMLElement): void {
  laidOut.delete(box);
}
