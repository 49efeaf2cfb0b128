import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { SelectionAnchor } from './anchoring.ts';
import { useComments } from './comments-context.tsx';

/** How long the selection must rest before the button shows (touch handles move a lot). */
const SETTLE_MS = 120;
const BUTTON_WIDTH_PX = 132;
const EDGE_PX = 8;

interface Offer {
  anchor: SelectionAnchor;
  top: number;
  left: number;
}

/** True for Ctrl+Alt+M (Cmd+Alt+M on a Mac): "comment on the selection". */
function isCommentShortcut(
  event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'code' | 'key'>,
): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    event.altKey &&
    (event.code === 'KeyM' || event.key.toLowerCase() === 'm')
  );
}

/**
 * The small floating "Comment" button under a selection in the reader box (mouse, touch or
 * keyboard), and the Ctrl/Cmd+Alt+M shortcut. A selection that leaves the box offers nothing.
 */
export function SelectionCommenter() {
  const { boxRef, anchorOfSelection, startComment, currentUserId, loginUrl } = useComments();
  const [offer, setOffer] = useState<Offer | null>(null);
  const pointerDown = useRef(false);

  /** The current selection as an offer, or null when it is not one inside the box. */
  const readSelection = useCallback((): Offer | null => {
    const box = boxRef.current;
    const selection = window.getSelection();
    if (!box || !selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
    if (!selection.anchorNode || !selection.focusNode) return null;
    if (!box.contains(selection.anchorNode) || !box.contains(selection.focusNode)) return null;
    const range = selection.getRangeAt(0);
    const anchor = anchorOfSelection(range);
    if (!anchor) return null;
    let top = 0;
    let left = 0;
    if (typeof range.getClientRects === 'function') {
      const rects = range.getClientRects();
      const last = rects[rects.length - 1] ?? range.getBoundingClientRect();
      const width = document.documentElement.clientWidth || window.innerWidth;
      top = last.bottom + window.scrollY + EDGE_PX;
      left =
        Math.min(Math.max(last.right - BUTTON_WIDTH_PX / 2, EDGE_PX), width - BUTTON_WIDTH_PX) +
        window.scrollX;
    }
    return { anchor, top, left };
  }, [boxRef, anchorOfSelection]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (!pointerDown.current) setOffer(readSelection());
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(check, SETTLE_MS);
    };
    const handlePointerDown = (event: PointerEvent) => {
      if (event.target instanceof Element && event.target.closest('[data-selection-commenter]')) {
        return;
      }
      pointerDown.current = true;
    };
    const handlePointerUp = () => {
      pointerDown.current = false;
      schedule();
    };
    document.addEventListener('selectionchange', schedule);
    document.addEventListener('pointerdown', handlePointerDown);
    document.addEventListener('pointerup', handlePointerUp);
    document.addEventListener('pointercancel', handlePointerUp);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', schedule);
      document.removeEventListener('pointerdown', handlePointerDown);
      document.removeEventListener('pointerup', handlePointerUp);
      document.removeEventListener('pointercancel', handlePointerUp);
    };
  }, [readSelection]);

  const commit = useCallback(
    (anchor: SelectionAnchor) => {
      setOffer(null);
      window.getSelection()?.removeAllRanges();
      startComment(anchor);
    },
    [startComment],
  );

  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (!isCommentShortcut(event)) return;
      const current = readSelection();
      if (!current) return;
      event.preventDefault();
      if (currentUserId === null) {
        window.location.assign(loginUrl);
        return;
      }
      commit(current.anchor);
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [readSelection, commit, currentUserId, loginUrl]);

  if (!offer) return null;
  const style = { top: offer.top, left: offer.left };
  return createPortal(
    <div
      className="absolute z-30 animate-[hl-pop_120ms_ease-out]"
      style={style}
      data-selection-commenter
    >
      <span role="status" className="sr-only">
        {currentUserId === null
          ? 'Log in to comment on the selection.'
          : 'Press Control+Alt+M to comment on the selection.'}
      </span>
      {currentUserId === null ? (
        <a href={loginUrl} className="btn btn-secondary min-h-9 px-4 shadow-lift">
          Log in to comment
        </a>
      ) : (
        <button
          type="button"
          className="btn btn-primary min-h-9 gap-1.5 px-4 shadow-lift"
          // Keeps the selection: the click must not clear it before we read it.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => commit(offer.anchor)}
          aria-keyshortcuts="Control+Alt+M Meta+Alt+M"
          title="Comment on the selection (Ctrl+Alt+M)"
          data-testid="comment-selection"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            <path d="M4 3.5h12A1.5 1.5 0 0 1 17.5 5v8a1.5 1.5 0 0 1-1.5 1.5H9.2L5.5 17.6V14.5H4A1.5 1.5 0 0 1 2.5 13V5A1.5 1.5 0 0 1 4 3.5Zm1 3v1.5h10V6.5H5Zm0 3.2v1.5h7V9.7H5Z" />
          </svg>
          Comment
        </button>
      )}
    </div>,
    document.body,
  );
}
