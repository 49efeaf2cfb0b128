// What follows the reading position on the reader page: the contents sidebar's scroll, and the
// automatic bookmark.
import { useEffect, useRef, type RefObject } from 'react';
import { READING_POSITION_DELAY_MS } from '@margins/common';
import { afterNextFrame } from '../../../lib/frames.ts';
import { blockText } from './reader-helpers.ts';
import { blocksOf, type PositionStore } from './use-reading-position.ts';

/** Keeps the current section's entry in sight in the sidebar (only the sidebar scrolls). */
export function useSidebarFollows(
  sidebarRef: RefObject<HTMLElement | null>,
  sectionId: string | null,
): void {
  useEffect(() => {
    const sidebar = sidebarRef.current;
    if (!sidebar || !sectionId) return;
    const link = Array.from(sidebar.querySelectorAll<HTMLElement>('[data-toc-id]')).find(
      (candidate) => candidate.dataset.tocId === sectionId,
    );
    if (!link) return;
    // Read after the frame: on a book's first render this effect would otherwise force the
    // layout of the whole new text inside the commit (lib/frames.ts).
    return afterNextFrame(() => {
      const box = sidebar.getBoundingClientRect();
      const rect = link.getBoundingClientRect();
      if (rect.top < box.top || rect.bottom > box.bottom) {
        sidebar.scrollTo({ top: sidebar.scrollTop + rect.top - box.top - box.height / 3 });
      }
    });
  }, [sidebarRef, sectionId]);
}

/**
 * The automatic bookmark follows the reading position once it has stayed on a block for 5 s —
 * but only after the reader moved: opening the page must not overwrite where they left off
 * last time.
 */
export function useAutoBookmark(
  boxRef: RefObject<HTMLElement | null>,
  position: PositionStore,
  textShown: boolean,
  track: (index: number, text: string) => void,
): void {
  const startIndex = useRef<number | null>(null);
  const moved = useRef(false);
  // Subscribed, not rendered: the page does not render again for each block passed.
  useEffect(() => {
    if (!textShown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = -2;
    const follow = () => {
      const { blockIndex } = position.get();
      if (blockIndex === current) return;
      current = blockIndex;
      clearTimeout(timer);
      if (blockIndex < 0) return;
      if (startIndex.current === null) startIndex.current = blockIndex;
      if (blockIndex !== startIndex.current) moved.current = true;
      if (!moved.current) return;
      timer = setTimeout(() => {
        track(blockIndex, blockText(blocksOf(boxRef.current)[blockIndex]));
      }, READING_POSITION_DELAY_MS);
    };
    follow();
    const unsubscribe = position.subscribe(follow);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [boxRef, position, textShown, track]);
}
