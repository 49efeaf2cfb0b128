import type { Comment, Highlight } from '@margins/common';
import { isWithheldPlace, type Placement } from './anchoring.ts';
import type { DraftHighlight } from './use-highlight-layer.ts';

/** One highlight and its comments: a card in the margin (or the drawer). */
export interface Thread {
  id: string;
  /** Null for a draft the server does not have yet. */
  highlight: Highlight | null;
  /** Best first: rank, then age. */
  comments: Comment[];
  /** Position in the text (orphans: Infinity). */
  start: number;
  colour: number;
  /** The passage, '' when private comments withhold it. */
  quote: string;
  /** Being written now: not saved yet. */
  draft: boolean;
  /** Highlighted by the current user. */
  own: boolean;
}

/** Someone else's private comment: its card has no place in the text (private comments). */
export const isWithheldThread = (thread: Thread): boolean =>
  thread.highlight !== null && isWithheldPlace(thread.highlight);

/** A fresh selection id (the contract: 6–64 of A–Z a–z 0–9 - _). */
export function newSelectionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Comments of a thread, best first (rank, then the older one). */
function byRank(a: Comment, b: Comment): number {
  return b.rank - a.rank || Date.parse(a.created) - Date.parse(b.created) || a.id - b.id;
}

/** How long someone else's highlight may stay without a comment: they are still writing. */
const WRITING_GRACE_MS = 15 * 60_000;

/**
 * The highlights to draw: every one with comments, one's own, and someone else's new one
 * without a comment yet (they are writing it: it appears live) — not one abandoned long ago.
 */
export function drawnHighlights(
  highlights: readonly Highlight[],
  comments: readonly Comment[],
  currentUserId: number | null,
  now: number,
): Highlight[] {
  const commented = new Set(comments.map((comment) => comment.selection_id));
  return highlights.filter(
    (highlight) =>
      commented.has(highlight.selection_id) ||
      highlight.user_id === currentUserId ||
      now - Date.parse(highlight.created) < WRITING_GRACE_MS,
  );
}

/**
 * The margin's threads in document order (the draft among them) and the unplaced ones: one per
 * highlight with comments, or one's own (a draft, or a highlight still without a comment).
 */
export function buildThreads({
  highlights,
  comments,
  placements,
  orphans,
  draft,
  currentUserId,
}: {
  highlights: readonly Highlight[];
  comments: readonly Comment[];
  placements: ReadonlyMap<string, Placement>;
  orphans: readonly Highlight[];
  draft: DraftHighlight | null;
  currentUserId: number | null;
}): { threads: Thread[]; orphans: Thread[] } {
  const commentsBySelection = new Map<string, Comment[]>();
  for (const comment of comments) {
    const list = commentsBySelection.get(comment.selection_id);
    if (list) list.push(comment);
    else commentsBySelection.set(comment.selection_id, [comment]);
  }
  const placed: Thread[] = [];
  const unplaced: Thread[] = [];
  const orphanIds = new Set(orphans.map((highlight) => highlight.selection_id));
  for (const highlight of highlights) {
    const list = (commentsBySelection.get(highlight.selection_id) ?? []).sort(byRank);
    const own = highlight.user_id === currentUserId;
    const isDraft = draft?.selectionId === highlight.selection_id;
    // Someone else's highlight without a comment yet has no card (they are still writing).
    if (list.length === 0 && !own && !isDraft) continue;
    const placement = placements.get(highlight.selection_id);
    const thread: Thread = {
      id: highlight.selection_id,
      highlight,
      comments: list,
      start: placement?.start ?? Infinity,
      colour: highlight.colour,
      quote: highlight.quote.exact || highlight.selectedText,
      draft: isDraft,
      own,
    };
    if (orphanIds.has(highlight.selection_id)) {
      if (list.length > 0) unplaced.push(thread);
    } else if (placement) {
      placed.push(thread);
    }
  }
  if (draft && !highlights.some((highlight) => highlight.selection_id === draft.selectionId)) {
    placed.push({
      id: draft.selectionId,
      highlight: null,
      comments: [],
      start: draft.anchor.start,
      colour: draft.colour,
      quote: draft.anchor.quote.exact,
      draft: true,
      own: true,
    });
  }
  placed.sort((a, b) => a.start - b.start);
  return { threads: placed, orphans: unplaced };
}
