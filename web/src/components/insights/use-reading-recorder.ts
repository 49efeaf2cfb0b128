import { useEffect, useRef } from 'react';
import { READING_REPORT_MS } from '@margins/common';
import { completeReading, sendReadingBatch } from '../../api/insights.ts';
import { PositionReport } from '../../lib/reading-position.ts';
import { ReadingTracker } from '../../lib/reading-tracker.ts';

/** Height of the sticky site header, which covers the top of the text. */
const HEADER_OFFSET_PX = 64;
/** Activity is noted at most this often (a scroll fires many events). */
const ACTIVITY_THROTTLE_MS = 1_000;
const ACTIVITY_EVENTS = ['scroll', 'keydown', 'pointermove', 'pointerdown', 'wheel', 'touchstart'];

/** The text's blocks: elements with an id and no ancestor with an id inside the reader box. */
export function textBlocks(box: HTMLElement): HTMLElement[] {
  return Array.from(box.querySelectorAll<HTMLElement>('[id]')).filter((element) => {
    const parent = element.parentElement?.closest('[id]');
    return !parent || !box.contains(parent);
  });
}

/**
 * Reports which blocks the reader had on screen and for how long (issue 15): an
 * IntersectionObserver over the blocks, time only while the tab is visible and the reader not
 * idle, batched every READING_REPORT_MS and once more when the page is hidden (keepalive).
 * The same batches carry how far the reader got (block index and percent of the page's
 * reading position: the read's progress in the reads list), when it is further than last sent.
 * Reaching the last block marks the read finished (the document-complete route).
 */
export function useReadingRecorder(
  manuscriptId: number,
  enabled: boolean,
  blockIndex: number,
  progress: number,
): void {
  const position = useRef(new PositionReport());
  useEffect(() => {
    position.current.note(blockIndex, progress);
  }, [blockIndex, progress]);

  useEffect(() => {
    if (!enabled || typeof IntersectionObserver === 'undefined') return;
    const box = document.querySelector<HTMLElement>('[data-testid="reader-box"]');
    if (!box) return;
    const blocks = textBlocks(box);
    if (blocks.length === 0) return;
    const last = blocks[blocks.length - 1]!;
    const tracker = new ReadingTracker(() => performance.now());
    let completed = false;

    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const block = entry.target as HTMLElement;
          tracker.setBlockVisible(block.id, entry.isIntersecting);
          if (block === last && entry.isIntersecting && !completed) {
            completed = true;
            completeReading(manuscriptId).catch(() => undefined);
          }
        }
      },
      { rootMargin: `-${HEADER_OFFSET_PX}px 0px 0px 0px`, threshold: 0 },
    );
    for (const block of blocks) observer.observe(block);

    const flush = (all: boolean) => {
      const times = all ? tracker.takeAll() : tracker.takeFinished();
      const furthest = position.current.take();
      if (times.length > 0 || furthest) {
        sendReadingBatch(manuscriptId, times, furthest, { keepalive: all });
      }
    };
    let lastActivity = 0;
    const handleActivity = () => {
      const now = performance.now();
      if (now - lastActivity < ACTIVITY_THROTTLE_MS) return;
      lastActivity = now;
      tracker.activity();
    };
    const handleVisibility = () => {
      const visible = document.visibilityState === 'visible';
      tracker.setPageVisible(visible);
      if (!visible) flush(true);
    };
    const handlePageHide = () => flush(true);
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, handleActivity, { passive: true });
    }
    document.addEventListener('visibilitychange', handleVisibility);
    window.addEventListener('pagehide', handlePageHide);
    const timer = window.setInterval(() => flush(false), READING_REPORT_MS);

    return () => {
      window.clearInterval(timer);
      observer.disconnect();
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, handleActivity);
      document.removeEventListener('visibilitychange', handleVisibility);
      window.removeEventListener('pagehide', handlePageHide);
      flush(true);
    };
  }, [manuscriptId, enabled]);
}

/**
 * The chapter being read: the id of the last h1 or h2 block at or above the first block in
 * view (the server falls back to the reader's furthest chapter when there is none).
 */
export function chapterInView(): string | undefined {
  const box = document.querySelector<HTMLElement>('[data-testid="reader-box"]');
  if (!box) return undefined;
  const blocks = textBlocks(box);
  let index = blocks.findIndex((block) => block.getBoundingClientRect().bottom > HEADER_OFFSET_PX);
  if (index < 0) index = blocks.length - 1;
  for (; index >= 0; index--) {
    const block = blocks[index]!;
    if (block.tagName === 'H1' || block.tagName === 'H2') return block.id;
  }
  return undefined;
}
