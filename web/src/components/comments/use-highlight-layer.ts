import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Highlight } from '@margins/common';
import {
  anchorOfRange,
  buildDocumentModel,
  LiveText,
  placeHighlight,
  type DocumentModel,
  type Placement,
  type SelectionAnchor,
} from './anchoring.ts';
import { paintInChunks, readingPositionOf } from './paint-in-chunks.ts';
import { HighlightPainter, type PaintedSpan } from './painter.ts';

/** A highlight being written: drawn before the server has it. */
export interface DraftHighlight {
  selectionId: string;
  anchor: SelectionAnchor;
  colour: number;
}

interface HighlightLayer {
  /** Where each highlight is in this draft (orphans are absent). */
  placements: Map<string, Placement>;
  /** Highlights that could not be placed (orphaned by a new draft, or not found). */
  orphans: Highlight[];
  /** Bumped after every redraw: the margin measures its anchors again. */
  drawVersion: number;
  /** The first drawn mark of a highlight. */
  firstMark: (selectionId: string) => HTMLElement | undefined;
  /** The anchors of a browser selection, or null when it is not a usable one in the box. */
  anchorOfSelection: (range: Range) => SelectionAnchor | null;
  /** The document text (for quotes), '' without text. */
  text: string;
}

/**
 * Reports how long anchoring and drawing took, from the first step to the last (a dev log,
 * and data-* on the box).
 */
function report(box: HTMLElement, count: number, anchorMs: number, drawMs: number) {
  box.dataset.highlightCount = String(count);
  box.dataset.highlightMs = (anchorMs + drawMs).toFixed(1);
  if (import.meta.env.DEV) {
    console.debug(
      `[margins] ${count} highlights: anchored in ${anchorMs.toFixed(1)} ms, drawn in ${drawMs.toFixed(1)} ms`,
    );
  }
}

/**
 * The highlights of the reader box: the pristine document model (taken once per HTML, before
 * anything is drawn), every highlight placed range → position → quote, and the marks kept in
 * step with the cache, the draft being written and the active thread.
 */
export function useHighlightLayer(
  boxRef: RefObject<HTMLElement | null>,
  html: string,
  highlights: readonly Highlight[],
  draft: DraftHighlight | null,
  activeId: string | null,
): HighlightLayer {
  const [model, setModel] = useState<DocumentModel | null>(null);
  const painterRef = useRef<HighlightPainter | null>(null);
  const liveRef = useRef<LiveText | null>(null);
  const anchorMs = useRef(0);
  const [drawVersion, setDrawVersion] = useState(0);

  // The model is read from the box as React rendered it from `html` (no marks yet: nothing is
  // drawn before there is a model). In a task of its own, after the one that shows the text:
  // a book's model (~950 kB of text walked) made that task a long one (issue 18).
  useLayoutEffect(() => {
    const box = boxRef.current;
    painterRef.current = null;
    liveRef.current = null;
    setModel(null);
    if (!box || !html) return;
    const timer = window.setTimeout(() => {
      painterRef.current = new HighlightPainter(box);
      setModel(buildDocumentModel(box));
    });
    return () => {
      window.clearTimeout(timer);
      painterRef.current = null;
    };
  }, [boxRef, html]);

  const { placements, orphans } = useMemo(() => {
    const started = performance.now();
    const placed = new Map<string, Placement>();
    const unplaced: Highlight[] = [];
    if (model) {
      for (const highlight of highlights) {
        const placement = placeHighlight(model, highlight);
        if (placement) placed.set(highlight.selection_id, placement);
        else unplaced.push(highlight);
      }
    }
    anchorMs.current = performance.now() - started;
    return { placements: placed, orphans: unplaced };
  }, [model, highlights]);

  useLayoutEffect(() => {
    const painter = painterRef.current;
    if (!painter || !model) return;
    const started = performance.now();
    const spans: PaintedSpan[] = [];
    for (const highlight of highlights) {
      const placement = placements.get(highlight.selection_id);
      if (!placement) continue;
      spans.push({
        id: highlight.selection_id,
        start: placement.start,
        end: placement.end,
        colour: highlight.colour,
        active: highlight.selection_id === activeId,
      });
    }
    if (draft && !placements.has(draft.selectionId)) {
      spans.push({
        id: draft.selectionId,
        start: draft.anchor.start,
        end: draft.anchor.end,
        colour: draft.colour,
        pending: true,
        active: true,
      });
    }
    const box = boxRef.current;
    if (box) box.dataset.highlights = 'painting';
    // Nearest the reading position first; the rest in short slices (paint-in-chunks.ts). The
    // margin measures again after the first step (what is in view) and the last, not after
    // each step between: at a book's length, each measure and render of the margin column
    // took what the next step needed (issue 18).
    let first = true;
    return paintInChunks(
      painter,
      spans,
      () => readingPositionOf(model, painter.box.ownerDocument),
      (last) => {
        liveRef.current = null;
        if (first || last) setDrawVersion((version) => version + 1);
        first = false;
      },
      () => {
        if (!box) return;
        box.dataset.highlights = 'painted';
        report(box, spans.length, anchorMs.current, performance.now() - started);
        // Not for the empty drawing before the comments have loaded (a profile waits for this).
        if (spans.length > 0) {
          performance.mark?.('margins:highlights-painted', { detail: spans.length });
        }
      },
    );
  }, [boxRef, model, highlights, placements, draft, activeId]);

  const firstMark = useCallback((id: string) => painterRef.current?.firstMark(id), []);

  const anchorOfSelection = useCallback(
    (range: Range) => {
      const box = boxRef.current;
      if (!box || !model) return null;
      if (!liveRef.current) liveRef.current = new LiveText(box);
      return anchorOfRange(model, liveRef.current, range);
    },
    [boxRef, model],
  );

  return {
    placements,
    orphans,
    drawVersion,
    firstMark,
    anchorOfSelection,
    text: model?.text ?? '',
  };
}
