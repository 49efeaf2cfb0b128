import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Thread } from './threads.ts';
import { CommentThread } from './comment-thread.tsx';
import { useComments } from './comments-context.tsx';
import { stackCards, visibleCards, type CardBox } from './margin-layout.ts';
import { useMarginGeometry } from './use-margin-geometry.ts';

/** A card's height before it has been measured. */
const ESTIMATED_HEIGHT_PX = 120;

/**
 * A margin card's place changes by transform (MarginLayer): not animated, or every restack
 * (a card measured, a passage measured) would animate every mounted card for 200 ms.
 */
const CARD_TRANSITION = { transitionProperty: 'box-shadow, translate' } as const;

/** Scrolls the page so that a highlight sits in the upper third of the window. */
export function scrollToMark(mark: HTMLElement | undefined) {
  if (!mark) return;
  const rect = mark.getBoundingClientRect();
  const reduced =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({
    top: Math.max(0, window.scrollY + rect.top - window.innerHeight * 0.3),
    behavior: reduced ? 'auto' : 'smooth',
  });
}

function Arrow({ up }: { up: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5 fill-current">
      <path
        d={
          up
            ? 'M10 4 4.5 9.5l1.1 1.1 3.6-3.6V16h1.6V7l3.6 3.6 1.1-1.1L10 4Z'
            : 'M10 16l5.5-5.5-1.1-1.1-3.6 3.6V4H9.2v9L5.6 9.4 4.5 10.5 10 16Z'
        }
      />
    </svg>
  );
}

/**
 * The margin column (wide screens): each highlight's thread beside its passage, absolutely
 * placed from the highlight's position and stacked 15 px apart so none overlap, the active
 * one exactly at its passage. Positions come from the blocks' offsets, measured again when the
 * box changes size (resize, fonts) or the marks are redrawn; scrolling (16 ms debounce, then an
 * animation frame) only decides which cards are mounted and how many are hidden above and
 * below — "N more above" / "N more below" scroll to them.
 */
export const MarginColumn = memo(function MarginColumn() {
  // Narrower screens keep the comments in the drawer: one editor, one place.
  return useComments().isWide ? <MarginLayer /> : null;
});

/**
 * One card in the margin, drawn again only when its thread or state changes (not for every
 * card each time the window moves, nor when only its place changes: MarginLayer writes the
 * places straight onto the mounted cards, in one pass before paint). Contained, so growing
 * one lays out and paints that card alone; not style-contained: a box with style containment
 * mounted or unmounted makes Chromium count every list of the page again, and the book's
 * footnotes then lay the whole page out again.
 */
const MarginCard = memo(function MarginCard({
  thread,
  active,
  observe,
}: {
  thread: Thread;
  active: boolean;
  observe: (id: string, element: HTMLDivElement | null) => void;
}) {
  const { id } = thread;
  const cardRef = useCallback(
    (element: HTMLDivElement | null) => observe(id, element),
    [observe, id],
  );
  return (
    <CommentThread
      thread={thread}
      cardRef={cardRef}
      style={CARD_TRANSITION}
      className={`absolute inset-x-0 top-0 [contain:layout_paint] ${active ? 'z-10 -translate-x-2' : ''}`}
    />
  );
});

function MarginLayer() {
  const { threads, firstMark, drawVersion, activeId, activate, boxRef, loading } = useComments();
  const layerRef = useRef<HTMLDivElement>(null);
  const [heights, setHeights] = useState<Map<string, number>>(() => new Map());
  const cardElements = useRef(new Map<string, HTMLDivElement>());
  // Only the cards near the window are mounted; their places come from block offsets measured
  // once, not from layout read on every scroll (use-margin-geometry.ts).
  const { anchors, view, band } = useMarginGeometry({
    layerRef,
    boxRef,
    threads,
    firstMark,
    drawVersion,
  });

  const cards = useMemo<CardBox[]>(
    () =>
      threads.flatMap((thread) => {
        const anchor = anchors.get(thread.id);
        if (anchor === undefined) return [];
        return [{ id: thread.id, anchor, height: heights.get(thread.id) ?? ESTIMATED_HEIGHT_PX }];
      }),
    [threads, anchors, heights],
  );
  const tops = useMemo(() => stackCards(cards, activeId), [cards, activeId]);
  // Mounted: the cards in a band around the window, moved only near its edge (mountBand).
  // The "N more" counts follow the window itself.
  const { shown } = visibleCards(cards, tops, band, 0, activeId);
  const { above, below } = visibleCards(cards, tops, view);
  const byId = useMemo(() => new Map(threads.map((thread) => [thread.id, thread])), [threads]);

  // Cards are measured as they render and whenever they change size (an editor opens, a
  // reply arrives): the stack follows their real heights.
  const [resizeObserver] = useState(() =>
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => {
          setHeights((current) => {
            let next: Map<string, number> | null = null;
            for (const entry of entries) {
              const element = entry.target as HTMLElement;
              const id = element.dataset.thread;
              const height = element.offsetHeight;
              if (!id || height === 0 || current.get(id) === height) continue;
              next ??= new Map(current);
              next.set(id, height);
            }
            return next ?? current;
          });
        })
      : null,
  );
  useEffect(() => () => resizeObserver?.disconnect(), [resizeObserver]);

  const observe = useCallback(
    (id: string, element: HTMLDivElement | null) => {
      const previous = cardElements.current.get(id);
      if (previous === element) return;
      if (previous) resizeObserver?.unobserve(previous);
      if (element) {
        cardElements.current.set(id, element);
        resizeObserver?.observe(element);
      } else {
        cardElements.current.delete(id);
      }
    },
    [resizeObserver],
  );

  // Every mounted card at its place: after React's DOM writes, before the browser's style and
  // layout (a card mounts without a place and gets it here, so it never slides into it).
  useLayoutEffect(() => {
    for (const [id, element] of cardElements.current) {
      const top = tops.get(id) ?? anchors.get(id);
      if (top === undefined) continue;
      const transform = `translateY(${top}px)`;
      if (element.style.transform !== transform) element.style.transform = transform;
    }
  });

  const reveal = (card: CardBox | undefined) => {
    if (!card) return;
    activate(card.id);
    scrollToMark(firstMark(card.id));
  };

  return (
    <>
      {/*
        The cards, apart from the bars that stay in sight: the layer is a relayout boundary
        (highlights.css), so a card mounted, unmounted or grown lays out the layer alone, not
        the page and its book. The cards sit in a box of their own inside it: adding or removing
        a positioned box marks its containing block's ancestors, not the containing block
        itself, for layout — the layer must be one of those ancestors to stop the marking.
      */}
      <div ref={layerRef} className="absolute inset-0" data-margin-layer>
        <div className="absolute inset-x-0 top-0">
          {shown.map((card) => {
            const thread = byId.get(card.id);
            if (!thread) return null;
            return (
              <MarginCard
                key={card.id}
                thread={thread}
                active={card.id === activeId}
                observe={observe}
              />
            );
          })}
        </div>
      </div>

      {/* "N more above / below" at the window's edges, over the cards. */}
      <div className="pointer-events-none absolute inset-0 flex flex-col">
        <div className="sticky top-20 z-20 h-0">
          {above.length > 0 ? (
            <MoreButton up count={above.length} onClick={() => reveal(above[above.length - 1])} />
          ) : null}
        </div>

        {threads.length === 0 && !loading ? (
          <p className="pointer-events-auto sticky top-24 px-2 text-center text-xs leading-relaxed text-muted">
            Select a passage, then <span className="font-semibold text-ink">Comment</span> (or
            Ctrl+Alt+M) to leave a note in the margin.
          </p>
        ) : null}

        <div className="flex-1" />

        <div className="sticky bottom-4 z-20 h-0">
          {below.length > 0 ? (
            <MoreButton up={false} count={below.length} onClick={() => reveal(below[0])} />
          ) : null}
        </div>
      </div>
    </>
  );
}

/**
 * "N more above" (or below): its count changes as the window moves, so its box has a fixed
 * height and contains its layout — a new count lays out this box alone (no style containment:
 * see highlights.css).
 */
function MoreButton({ up, count, onClick }: { up: boolean; count: number; onClick: () => void }) {
  return (
    <div
      className={`absolute inset-x-0 flex h-7 justify-center [contain:size_layout] ${up ? 'top-0 items-start' : 'bottom-0 items-end'}`}
    >
      <button
        type="button"
        className="pointer-events-auto inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-line bg-surface/95 px-3 py-1 text-xs font-medium text-muted shadow-card backdrop-blur transition-colors hover:border-accent hover:text-ink"
        onClick={onClick}
        data-testid={up ? 'more-above' : 'more-below'}
      >
        <Arrow up={up} />
        {count} more {up ? 'above' : 'below'}
      </button>
    </div>
  );
}
