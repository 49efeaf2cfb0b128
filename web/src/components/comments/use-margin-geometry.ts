import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { RESIZE_DEBOUNCE_MS, SCROLL_DEBOUNCE_MS } from '@margins/common';
import { afterNextFrame } from '../../lib/frames.ts';
import { mountBand, type Band } from './margin-layout.ts';
import type { Thread } from './threads.ts';

/** The sticky site header and the progress bar cover the top of the window. */
const COVERED_TOP_PX = 72;

/** The reader box's top-level blocks: where each is in the text and in the margin layer. */
export interface BlockLayout {
  /** Text position where each block starts (ascending). */
  starts: number[];
  ends: number[];
  /** Top of each block and its height, in margin layer coordinates. */
  tops: number[];
  heights: number[];
  /** The box's width when measured: a new width means the lines wrap anew. */
  width: number;
}

/** The part of the margin layer in the window (layer coordinates). */
interface MarginView {
  top: number;
  bottom: number;
}

interface BlockSpans {
  box: HTMLElement;
  elements: HTMLElement[];
  starts: number[];
  ends: number[];
}

/**
 * The box's top-level blocks with their text positions: the lengths of its child nodes in
 * order, as the document model counts them (highlights add elements, never text).
 */
export function blockSpansOf(box: HTMLElement): BlockSpans {
  const elements: HTMLElement[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const node of Array.from(box.childNodes)) {
    const length = node.textContent?.length ?? 0;
    if (node instanceof HTMLElement) {
      elements.push(node);
      starts.push(at);
      ends.push(at + length);
    }
    at += length;
  }
  return { box, elements, starts, ends };
}

/**
 * The box and the elements holding it, up to the one that also holds the margin layer: the text
 * moves against the layer when anything above it in them changes height (a notice, a toolbar
 * wrapping onto a second line) without the box changing size, but never without one of them
 * changing size.
 */
export function boxAndHolders(box: HTMLElement | null, layer: HTMLElement | null): HTMLElement[] {
  const found: HTMLElement[] = [];
  const holdsLayer = (element: HTMLElement) => layer !== null && element.contains(layer);
  for (let element = box; element && !holdsLayer(element); element = element.parentElement) {
    found.push(element);
  }
  return found;
}

/** The index of the block holding text position `at` (the last one starting at or before it). */
export function blockIndexAt(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle]! <= at) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * Where a passage starting at text position `start` sits in the layer: its block's top plus
 * its measured offset in the block, or, not measured yet, its share of the block's text.
 */
export function anchorOf(layout: BlockLayout, start: number, offsetInBlock?: number): number {
  const index = blockIndexAt(layout.starts, start);
  const top = layout.tops[index] ?? 0;
  if (offsetInBlock !== undefined) return Math.round(top + offsetInBlock);
  const length = (layout.ends[index] ?? 0) - (layout.starts[index] ?? 0);
  const share = length > 0 ? ((start - layout.starts[index]!) / length) * 0.9 : 0;
  return Math.round(top + share * (layout.heights[index] ?? 0));
}

/** A passage's measured offset in its block, and the block's size when it was measured. */
interface MeasuredOffset {
  offset: number;
  height: number;
  width: number;
}

/** The measured offset while its block keeps that size (else the lines wrap anew). */
function offsetIn(
  layout: BlockLayout,
  index: number,
  measured: MeasuredOffset | undefined,
): number | undefined {
  if (!measured || measured.width !== layout.width) return undefined;
  return measured.height === layout.heights[index] ? measured.offset : undefined;
}

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/** Where the window was at one scroll event, and when (performance.now()). */
interface ScrollSample {
  y: number;
  at: number;
}

/** Faster than this (screens a second), scrolling is a fling through the book, not reading. */
const FLING_SCREENS_PER_SECOND = 3;
/** A fling's cards are placed this long after its last scroll event. */
export const FLING_SETTLE_MS = 120;

/**
 * How long after this scroll event the margin reads the window again: SPEC's 16 ms debounce,
 * or, in a fling (the window moved more than FLING_SCREENS_PER_SECOND since the last event),
 * once the fling slows or stops. Cards mounted and placed on every frame of a fling would be
 * gone again before anyone could read them, and cost each frame its smoothness (issue 18); the
 * cards already mounted stay beside their passages meanwhile.
 */
export function scrollReadDelay(last: ScrollSample, now: ScrollSample, screen: number): number {
  const seconds = Math.max(1, now.at - last.at) / 1000;
  const screensPerSecond = Math.abs(now.y - last.y) / Math.max(1, screen) / seconds;
  return screensPerSecond > FLING_SCREENS_PER_SECOND ? FLING_SETTLE_MS : SCROLL_DEBOUNCE_MS;
}

/**
 * The margin's geometry without reading layout on scroll: block offsets measured once, and
 * again only when the box or what holds it changes size (ResizeObserver: a resize, a font
 * loaded or resized, blocks laid out for the first time, a line above the text) or the marks are
 * redrawn; the passages near the window
 * measured exactly once their marks are drawn. Scrolling (passive, 16 ms debounce, then one
 * animation frame; a fling once it slows: scrollReadDelay) reads only window.scrollY.
 */
export function useMarginGeometry({
  layerRef,
  boxRef,
  threads,
  firstMark,
  drawVersion,
}: {
  layerRef: RefObject<HTMLElement | null>;
  boxRef: RefObject<HTMLElement | null>;
  threads: readonly Thread[];
  firstMark: (id: string) => HTMLElement | undefined;
  drawVersion: number;
}): {
  anchors: Map<string, number>;
  view: MarginView;
  /** Where cards are mounted: the window and a screen either side, moved near its edge. */
  band: Band;
  layerTop: () => number;
} {
  const [layout, setLayout] = useState<BlockLayout | null>(null);
  const [offsets, setOffsets] = useState<Map<string, MeasuredOffset>>(() => new Map());
  const [view, setView] = useState<MarginView>({ top: 0, bottom: 900 });
  const spans = useRef<BlockSpans | null>(null);
  const layerTopInPage = useRef(0);

  const readView = useCallback(() => {
    const top = Math.round(window.scrollY + COVERED_TOP_PX - layerTopInPage.current);
    const bottom = Math.round(window.scrollY + window.innerHeight - layerTopInPage.current);
    setView((current) =>
      current.top === top && current.bottom === bottom ? current : { top, bottom },
    );
  }, []);

  const measure = useCallback(() => {
    const layer = layerRef.current;
    const box = boxRef.current;
    if (!layer || !box) return;
    const known = spans.current;
    if (!known || known.box !== box || known.elements.length !== box.childElementCount) {
      spans.current = blockSpansOf(box);
    }
    const { elements, starts, ends } = spans.current!;
    const layerRect = layer.getBoundingClientRect();
    const boxRect = box.getBoundingClientRect();
    layerTopInPage.current = layerRect.top + window.scrollY;
    // offsetTop is relative to the blocks' offset parent: the box when it is positioned.
    const origin =
      boxRect.top - layerRect.top - (elements[0]?.offsetParent === box ? 0 : box.offsetTop);
    const tops = elements.map((element) => Math.round(origin + element.offsetTop));
    const heights = elements.map((element) => element.offsetHeight);
    const width = Math.round(boxRect.width);
    setLayout((current) => {
      if (
        current &&
        current.width === width &&
        sameNumbers(current.tops, tops) &&
        sameNumbers(current.heights, heights)
      ) {
        return current;
      }
      return { starts, ends, tops, heights, width };
    });
    readView();
  }, [layerRef, boxRef, readView]);

  // Read after the next frame, never inside the task that changed the page: the blocks' places
  // are then the ones that frame laid out. Read earlier, they forced that layout into the task:
  // a book's whole first layout into the commit that inserted it, beside the margin column a
  // 280–400 ms task (issue 18).
  useEffect(() => afterNextFrame(() => measure()), [measure, drawVersion]);

  useEffect(() => {
    const box = boxRef.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelFrame = () => {};
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        cancelFrame();
        cancelFrame = afterNextFrame(() => measure());
      }, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', schedule);
    // The box grows dozens of times while a book is laid out a part at a time
    // (use-progressive-layout.ts): measured once it has settled, not on every step.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
    for (const element of boxAndHolders(box, layerRef.current)) observer?.observe(element);
    const fonts = document.fonts as FontFaceSet | undefined;
    void fonts?.ready.then(schedule);
    fonts?.addEventListener?.('loadingdone', schedule);
    return () => {
      clearTimeout(timer);
      cancelFrame();
      window.removeEventListener('resize', schedule);
      observer?.disconnect();
      fonts?.removeEventListener?.('loadingdone', schedule);
    };
  }, [measure, boxRef, layerRef]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    let last: ScrollSample = { y: window.scrollY, at: performance.now() };
    const handleScroll = () => {
      clearTimeout(timer);
      const sample = { y: window.scrollY, at: performance.now() };
      const delay = scrollReadDelay(last, sample, window.innerHeight);
      last = sample;
      timer = setTimeout(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(readView);
      }, delay);
    };
    window.addEventListener('scroll', handleScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', handleScroll);
    };
  }, [readView]);

  // The passages near the window, measured exactly once drawn (their blocks are laid out):
  // again only when the band of mounted cards moves (mountBand), not on every scrolled frame.
  const bandRef = useRef<Band | null>(null);
  const band = mountBand(bandRef.current, view);
  bandRef.current = band;
  useEffect(() => {
    if (!layout) return;
    return afterNextFrame(() => {
      const known = spans.current;
      if (!known) return;
      const reach = (band.bottom - band.top) / 6;
      let found: Map<string, MeasuredOffset> | null = null;
      for (const thread of threads) {
        if (!Number.isFinite(thread.start)) continue;
        const index = blockIndexAt(known.starts, thread.start);
        if (offsetIn(layout, index, offsets.get(thread.id)) !== undefined) continue;
        const estimate = anchorOf(layout, thread.start);
        if (estimate < band.top - reach || estimate > band.bottom + reach) continue;
        const mark = firstMark(thread.id);
        const block = known.elements[index];
        if (!mark || !block) continue;
        found ??= new Map(offsets);
        found.set(thread.id, {
          offset: mark.getBoundingClientRect().top - block.getBoundingClientRect().top,
          height: layout.heights[index] ?? 0,
          width: layout.width,
        });
      }
      if (found) setOffsets(found);
    });
  }, [layout, band, threads, offsets, firstMark, drawVersion]);

  const anchors = useMemo(() => {
    const next = new Map<string, number>();
    if (!layout) return next;
    for (const thread of threads) {
      if (!Number.isFinite(thread.start)) continue;
      const index = blockIndexAt(layout.starts, thread.start);
      next.set(
        thread.id,
        anchorOf(layout, thread.start, offsetIn(layout, index, offsets.get(thread.id))),
      );
    }
    return next;
  }, [layout, threads, offsets]);

  const layerTop = useCallback(() => layerTopInPage.current, []);
  return { anchors, view, band, layerTop };
}
