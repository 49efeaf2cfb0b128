// The reader's one open comment editor, and the draft highlight of a new comment.
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import { HIGHLIGHT_COLOURS, MESSAGES, type Highlight } from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import { removeHighlight } from '../../api/comments.ts';
import type { SelectionAnchor } from './anchoring.ts';
import * as writes from './comment-writes.ts';
import type { DraftHighlight } from './use-highlight-layer.ts';
import { newSelectionId } from './threads.ts';

/** The one comment editor that may be open. */
export type Editor =
  | { kind: 'new'; selectionId: string }
  | { kind: 'reply'; selectionId: string }
  | { kind: 'edit'; selectionId: string; commentId: number };

interface DraftState extends DraftHighlight {
  /** The highlight is stored on the server (its `highlight` event was acked). */
  stored: boolean;
}

/** What the editor works with: the provider's write context, highlights and shared state. */
interface CommentEditorOptions {
  context: writes.WriteContext;
  highlights: Highlight[];
  isWide: boolean;
  flash: (message: string) => void;
  update: writes.WriteContext['update'];
  refetch: () => void;
  setActiveId: Dispatch<SetStateAction<string | null>>;
  setDrawer: Dispatch<SetStateAction<{ open: boolean; threadId: string | null }>>;
}

/**
 * The one comment editor that may be open, and the draft highlight of a new comment until
 * its first save: opening (or refusing a second), saving, cancelling, and the page closing.
 */
export function useCommentEditor(options: CommentEditorOptions) {
  const { context, highlights, isWide, flash, update, refetch, setActiveId, setDrawer } = options;
  const [draft, setDraft] = useState<DraftState | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [editorWarning, setEditorWarning] = useState(0);
  /** The `highlight` event of the draft, which its first save waits for. */
  const creating = useRef(new Map<string, Promise<Highlight | null>>());

  const warnEditorOpen = useCallback(() => {
    flash(MESSAGES.saveOrCloseComment);
    setEditorWarning((count) => count + 1);
    // On a phone the open editor may sit in the closed drawer: show it.
    if (!isWide && editor) setDrawer({ open: true, threadId: editor.selectionId });
  }, [flash, isWide, editor, setDrawer]);

  const openEditor = useCallback(
    (next: Editor) => {
      if (editor) {
        const same =
          editor.kind === next.kind &&
          editor.selectionId === next.selectionId &&
          (editor.kind !== 'edit' || (next.kind === 'edit' && editor.commentId === next.commentId));
        if (!same) warnEditorOpen();
        return same;
      }
      setEditor(next);
      setActiveId(next.selectionId);
      return true;
    },
    [editor, warnEditorOpen, setActiveId],
  );

  const startComment = useCallback(
    (anchor: SelectionAnchor) => {
      if (editor) {
        warnEditorOpen();
        return;
      }
      const selectionId = newSelectionId();
      // The next colour of the cycle, by the highlights the page has (the server keeps it).
      const colour = highlights.length % HIGHLIGHT_COLOURS.length;
      setDraft({ selectionId, anchor, colour, stored: false });
      setEditor({ kind: 'new', selectionId });
      setActiveId(selectionId);
      if (!isWide) setDrawer({ open: true, threadId: selectionId });
      const pending = writes.createHighlight(context, selectionId, anchor, colour).then(
        (highlight) => {
          if (highlight) {
            setDraft((current) =>
              current?.selectionId === selectionId ? { ...current, stored: true } : current,
            );
          }
          return highlight;
        },
        (error: unknown) => {
          flash(errorMessage(error));
          setDraft((current) => (current?.selectionId === selectionId ? null : current));
          setEditor((current) => (current?.selectionId === selectionId ? null : current));
          return null;
        },
      );
      creating.current.set(selectionId, pending);
    },
    [editor, warnEditorOpen, highlights.length, isWide, context, flash, setActiveId, setDrawer],
  );

  const finishDraft = useCallback((selectionId: string) => {
    creating.current.delete(selectionId);
    setDraft((current) => (current?.selectionId === selectionId ? null : current));
  }, []);

  const saveEditor = useCallback(
    async (text: string): Promise<boolean> => {
      if (!editor) return false;
      try {
        if (editor.kind === 'edit') {
          await writes.updateComment(context, editor.commentId, text);
        } else if (editor.kind === 'reply') {
          await writes.saveNewComment(context, editor.selectionId, text, null);
        } else {
          const highlight = await creating.current.get(editor.selectionId);
          const current = draft?.selectionId === editor.selectionId ? draft : null;
          const stored = Boolean(highlight) || Boolean(current?.stored);
          await writes.saveNewComment(
            context,
            editor.selectionId,
            text,
            stored ? null : (current?.anchor ?? null),
            current?.colour,
          );
          finishDraft(editor.selectionId);
        }
        setEditor(null);
        return true;
      } catch (error) {
        flash(errorMessage(error));
        return false;
      }
    },
    [editor, context, draft, finishDraft, flash],
  );

  const cancelEditor = useCallback(() => {
    if (!editor) return;
    setEditor(null);
    if (editor.kind !== 'new') return;
    const { selectionId } = editor;
    const wasStored =
      (draft?.selectionId === selectionId && draft.stored) ||
      highlights.some((highlight) => highlight.selection_id === selectionId);
    const pending = creating.current.get(selectionId);
    finishDraft(selectionId);
    setActiveId(null);
    // The empty new comment goes, and with it its highlight (here at once, then on the server).
    update((current) => removeHighlight(current, selectionId));
    void (async () => {
      try {
        const stored = Boolean(await pending) || wasStored;
        await writes.cancelNewComment(context, selectionId, stored);
      } catch (error) {
        flash(errorMessage(error));
        refetch();
      }
    })();
  }, [editor, draft, highlights, finishDraft, update, context, flash, refetch, setActiveId]);

  // Closing the page with a new comment open: its highlight would be left without one.
  useEffect(() => {
    if (editor?.kind !== 'new') return;
    const { selectionId } = editor;
    const handlePageHide = () => {
      void writes.cancelNewComment(context, selectionId, true).catch(() => undefined);
    };
    window.addEventListener('pagehide', handlePageHide);
    return () => window.removeEventListener('pagehide', handlePageHide);
  }, [editor, context]);
  // One object while the editor stays as it is (the comments context is memoised on it).
  const editorApi = useMemo(
    () => ({ editor, editorWarning, openEditor, startComment, saveEditor, cancelEditor }),
    [editor, editorWarning, openEditor, startComment, saveEditor, cancelEditor],
  );
  return {
    draft,
    setEditor,
    /** The editor's part of the comments API. */
    editorApi,
  };
}
