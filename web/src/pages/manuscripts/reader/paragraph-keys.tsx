// The reader by keyboard alone: paragraphs as one roving tab stop, selecting by key, and the
// way back to the passage once its comment is saved.
import { useEffect, useRef, useState } from 'react';
import { useComments } from '../../../components/comments/index.ts';
import { whenIdle } from '../../../components/comments/paint-in-chunks.ts';
import { blocksOf } from './use-reading-position.ts';

/** The hint shown while a paragraph has the keyboard focus (and read to screen readers). */
const PARAGRAPH_KEYS_HINT =
  '↑ ↓ move between paragraphs · Enter selects the paragraph, Enter again comments on it · ' +
  'Shift+← → moves the end of the selection, Shift+Alt+← → its start · M goes to the ' +
  'paragraph’s margin note, Escape there comes back';

/** Blocks a reader can stop on: those with words (not scene breaks or empty lines). */
function readableBlocks(box: HTMLElement | null): HTMLElement[] {
  return blocksOf(box).filter(isReadable);
}

/** A block with words in it. */
function isReadable(block: HTMLElement): boolean {
  return (block.textContent ?? '').trim() !== '';
}

/** Makes `block` the one paragraph in the tab order (roving tabindex). */
function makeCurrent(box: HTMLElement, block: HTMLElement): void {
  for (const current of box.querySelectorAll<HTMLElement>(':scope > [tabindex="0"]')) {
    if (current !== block) current.setAttribute('tabindex', '-1');
  }
  block.setAttribute('tabindex', '0');
}

/** Room kept free above (the sticky header) and below (the keys hint) a focused paragraph. */
const CLEAR_TOP_PX = 96;
const CLEAR_BOTTOM_PX = 120;

/**
 * Brings a focused paragraph to the middle of the window when it sits under the header or
 * the hint (a focused element must not be hidden). Instantly: no smooth scrolling to honour
 * or not.
 */
function keepInView(block: HTMLElement): void {
  const rect = block.getBoundingClientRect();
  if (rect.top >= CLEAR_TOP_PX && rect.bottom <= window.innerHeight - CLEAR_BOTTOM_PX) return;
  block.scrollIntoView?.({ block: rect.height > window.innerHeight / 2 ? 'start' : 'center' });
}

/** The selection, when it is a non-empty one inside `block`. */
function selectionIn(block: HTMLElement): Selection | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (!block.contains(range.startContainer) || !block.contains(range.endContainer)) return null;
  return selection;
}

/** The margin card (or drawer card) of a thread, once it is drawn; tries for a few frames. */
function focusThread(id: string, tries = 10): void {
  const card = Array.from(document.querySelectorAll<HTMLElement>('[data-thread]')).find(
    (candidate) => candidate.dataset.thread === id && candidate.offsetParent !== null,
  );
  if (!card) {
    if (tries > 0) requestAnimationFrame(() => focusThread(id, tries - 1));
    return;
  }
  if (!card.hasAttribute('tabindex')) card.setAttribute('tabindex', '-1');
  card.focus();
}

/**
 * Moves one edge of the selection by a word. Selection.modify moves the focus end, so the
 * selection is first turned to have that edge as its focus.
 */
function moveEdge(selection: Selection, edge: 'start' | 'end', direction: 'left' | 'right') {
  const range = selection.getRangeAt(0);
  if (edge === 'start') {
    selection.setBaseAndExtent(
      range.endContainer,
      range.endOffset,
      range.startContainer,
      range.startOffset,
    );
  } else {
    selection.setBaseAndExtent(
      range.startContainer,
      range.startOffset,
      range.endContainer,
      range.endOffset,
    );
  }
  selection.modify('extend', direction === 'left' ? 'backward' : 'forward', 'word');
}

/**
 * Keyboard reading for the reader box: every paragraph is focusable, one of them in the tab
 * order; ↑/↓ (or j/k), Home and End move between them; Enter selects the focused paragraph
 * and Enter again opens the comment editor on the selection (Ctrl+Alt+M works too);
 * Shift+←/→ and Shift+Alt+←/→ move the selection's end and start by a word; Escape clears
 * it; M goes to the paragraph's margin note and Escape there comes back. When the editor
 * closes, the focus goes back to the paragraph it came from.
 */
export function ParagraphKeys({ html }: { html: string }) {
  const { boxRef, anchorOfSelection, startComment, currentUserId, loginUrl, editor, activate } =
    useComments();
  const [focused, setFocused] = useState(false);
  const lastBlock = useRef<HTMLElement | null>(null);

  // The paragraphs, found once per text. A book's 3,000 blocks are read (their text) and
  // made focusable in idle time, not in the task that shows the text (issue 18): only the
  // first paragraph, the tab stop, is marked at once.
  const paragraphs = useRef<() => HTMLElement[]>(() => []);
  useEffect(() => {
    const box = boxRef.current;
    let found: HTMLElement[] | null = null;
    const all = () => (found ??= readableBlocks(box));
    paragraphs.current = all;
    const first = blocksOf(box).find(isReadable);
    if (!first) return;
    first.setAttribute('tabindex', '0');
    // Read once, where the keyboard enters the text.
    first.setAttribute('aria-describedby', 'paragraph-keys-hint');
    return whenIdle(() => {
      for (const block of all()) {
        if (!block.hasAttribute('tabindex')) block.setAttribute('tabindex', '-1');
      }
    });
  }, [boxRef, html]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const paragraphsOf = paragraphs.current;

    const blockOf = (target: EventTarget | null): HTMLElement | null => {
      if (!(target instanceof HTMLElement)) return null;
      return target.parentElement === box && paragraphsOf().includes(target) ? target : null;
    };
    const focusBlock = (block: HTMLElement | undefined) => {
      if (!block) return;
      makeCurrent(box, block);
      block.focus({ preventScroll: true });
      keepInView(block);
    };
    // Tab into the text: the browser scrolls the paragraph just into sight, maybe under the
    // hint. Other focus (the contents' jump, a bookmark) does its own scrolling: left alone.
    let tabbedAt = -Infinity;
    const handleTab = (event: KeyboardEvent) => {
      if (event.key === 'Tab') tabbedAt = performance.now();
    };
    const handleFocusIn = (event: FocusEvent) => {
      const block = blockOf(event.target);
      if (!block) return;
      makeCurrent(box, block);
      if (performance.now() - tabbedAt < 500) keepInView(block);
      lastBlock.current = block;
      setFocused(true);
    };
    const handleFocusOut = (event: FocusEvent) => {
      if (!blockOf(event.relatedTarget)) setFocused(false);
    };
    const handleKeyDown = (event: KeyboardEvent) => {
      const block = blockOf(event.target);
      if (!block) return;
      const blocks = paragraphsOf();
      const index = blocks.indexOf(block);
      const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
      if (plain && (event.key === 'ArrowDown' || event.key === 'j')) {
        event.preventDefault();
        focusBlock(blocks[index + 1]);
      } else if (plain && (event.key === 'ArrowUp' || event.key === 'k')) {
        event.preventDefault();
        focusBlock(blocks[index - 1]);
      } else if (plain && event.key === 'Home') {
        event.preventDefault();
        focusBlock(blocks[0]);
      } else if (plain && event.key === 'End') {
        event.preventDefault();
        focusBlock(blocks[blocks.length - 1]);
      } else if (plain && (event.key === 'm' || event.key === 'M')) {
        const id = block.querySelector<HTMLElement>('mark[data-hl]')?.dataset.hl;
        if (!id) return;
        event.preventDefault();
        activate(id, { reveal: true });
        focusThread(id);
      } else if (plain && event.key === 'Escape') {
        window.getSelection()?.removeAllRanges();
      } else if (plain && event.key === 'Enter') {
        event.preventDefault();
        const selection = selectionIn(block);
        if (!selection) {
          window.getSelection()?.selectAllChildren(block);
          return;
        }
        if (currentUserId === null) {
          window.location.assign(loginUrl);
          return;
        }
        const anchor = anchorOfSelection(selection.getRangeAt(0));
        if (!anchor) return;
        selection.removeAllRanges();
        startComment(anchor);
      } else if (
        event.shiftKey &&
        !event.ctrlKey &&
        !event.metaKey &&
        (event.key === 'ArrowLeft' || event.key === 'ArrowRight')
      ) {
        const selection = selectionIn(block);
        if (!selection) return;
        event.preventDefault();
        moveEdge(
          selection,
          event.altKey ? 'start' : 'end',
          event.key === 'ArrowLeft' ? 'left' : 'right',
        );
      }
    };
    // Escape in a margin note goes back to the paragraph the keyboard came from.
    const handleDocumentKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (!target?.closest('[data-margin-layer] [data-thread]')) return;
      if (target.closest('textarea, input, [role="dialog"]')) return;
      lastBlock.current?.focus();
    };
    document.addEventListener('keydown', handleDocumentKeyDown);
    document.addEventListener('keydown', handleTab, true);
    box.addEventListener('focusin', handleFocusIn);
    box.addEventListener('focusout', handleFocusOut);
    box.addEventListener('keydown', handleKeyDown);
    return () => {
      document.removeEventListener('keydown', handleDocumentKeyDown);
      document.removeEventListener('keydown', handleTab, true);
      box.removeEventListener('focusin', handleFocusIn);
      box.removeEventListener('focusout', handleFocusOut);
      box.removeEventListener('keydown', handleKeyDown);
    };
  }, [boxRef, html, anchorOfSelection, startComment, currentUserId, loginUrl, activate]);

  // The editor closed (saved or cancelled) and took the focus with it: back to the passage.
  const editorOpen = editor !== null;
  const wasOpen = useRef(editorOpen);
  useEffect(() => {
    const closed = wasOpen.current && !editorOpen;
    wasOpen.current = editorOpen;
    if (!closed) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    lastBlock.current?.focus({ preventScroll: true });
  }, [editorOpen]);

  return (
    <p
      id="paragraph-keys-hint"
      className={
        focused
          ? 'sticky bottom-3 z-10 mx-auto mt-4 max-w-[65ch] rounded-lg border border-line bg-surface px-3 py-2 text-xs text-muted shadow-card'
          : 'sr-only'
      }
    >
      {PARAGRAPH_KEYS_HINT}
    </p>
  );
}
