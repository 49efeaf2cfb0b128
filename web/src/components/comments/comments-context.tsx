import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  HIGHLIGHT_COLOURS,
  MESSAGES,
  type Comment,
  type CommentAuthor,
  type Highlight,
  type RankDirection,
  type ReportModel,
} from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import { removeHighlight } from '../../api/comments.ts';
import type { ConnectionStatus } from '../../realtime/manuscript-room.ts';
import type { MarginsSocket } from '../../realtime/socket.ts';
import { ConfirmDialog } from '../dialog.tsx';
import { useFlash } from '../feedback/feedback.tsx';
import type { SelectionAnchor } from './anchoring.ts';
import * as writes from './comment-writes.ts';
import './highlights.css';
import { ReportDialog } from './report-dialog.tsx';
import { SelectionCommenter } from './selection-commenter.tsx';
import { useCommentData } from './use-comment-data.ts';
import { useHighlightLayer, type DraftHighlight } from './use-highlight-layer.ts';
import { buildThreads, drawnHighlights, newSelectionId, type Thread } from './threads.ts';
import { useMediaQuery, WIDE_QUERY } from './use-media-query.ts';

/** The one comment editor that may be open. */
export type Editor =
  | { kind: 'new'; selectionId: string }
  | { kind: 'reply'; selectionId: string }
  | { kind: 'edit'; selectionId: string; commentId: number };

export interface ReportTarget {
  model: ReportModel;
  id: number;
  /** What the modal says is reported. */
  label: string;
}

export type { Thread };

export interface CommentsApi {
  /** False while no text is shown (gates, inking): nothing is loaded or connected. */
  enabled: boolean;
  manuscriptId: number;
  currentUserId: number | null;
  isOwner: boolean;
  loginUrl: string;
  threads: Thread[];
  orphans: Thread[];
  commentCount: number;
  loading: boolean;
  status: ConnectionStatus;
  users: CommentAuthor[];
  activeId: string | null;
  activate: (id: string | null, options?: { reveal?: boolean }) => void;
  editor: Editor | null;
  /** Bumped each time someone tries to open a second editor (the open one says why). */
  editorWarning: number;
  openEditor: (editor: Editor) => boolean;
  startComment: (anchor: SelectionAnchor) => void;
  saveEditor: (text: string) => Promise<boolean>;
  cancelEditor: () => void;
  rank: (comment: Comment, dir: RankDirection) => void;
  /** Removes one's own highlight that has no comment. */
  removeHighlight: (selectionId: string) => void;
  askDelete: (comment: Comment) => void;
  askReport: (target: ReportTarget) => void;
  firstMark: (id: string) => HTMLElement | undefined;
  drawVersion: number;
  anchorOfSelection: (range: Range) => SelectionAnchor | null;
  isWide: boolean;
  drawer: { open: boolean; threadId: string | null };
  openDrawer: (threadId?: string | null) => void;
  closeDrawer: () => void;
  boxRef: RefObject<HTMLElement | null>;
}

const CommentsContext = createContext<CommentsApi | null>(null);

/** The reader's comments, for the components under <CommentsProvider>. */
export function useComments(): CommentsApi {
  const value = useContext(CommentsContext);
  if (!value) throw new Error('useComments needs a <CommentsProvider>.');
  return value;
}

/** The same, or null outside a provider (parts of the reader shown without comments). */
export function useOptionalComments(): CommentsApi | null {
  return useContext(CommentsContext);
}

interface DraftState extends DraftHighlight {
  /** The highlight is stored on the server (its `highlight` event was acked). */
  stored: boolean;
}

/**
 * Everything about the reader's highlights and comments: the live data, the marks in the
 * reader box, the one open editor, votes, deletes and reports. Wraps the reader page.
 */
export function CommentsProvider({
  manuscriptId,
  manuscriptOwnerId,
  currentUserId,
  boxRef,
  html,
  children,
  socketFactory,
}: {
  manuscriptId: number;
  manuscriptOwnerId: number;
  currentUserId: number | null;
  boxRef: RefObject<HTMLElement | null>;
  /** The HTML in the box ('' while no text is shown: nothing connects then). */
  html: string;
  children: ReactNode;
  socketFactory?: () => MarginsSocket;
}) {
  const flash = useFlash();
  const enabled = html !== '';
  const { data, loading, room, status, users, update, refetch } = useCommentData(
    manuscriptId,
    enabled,
    flash,
    socketFactory,
  );
  const [draft, setDraft] = useState<DraftState | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [editorWarning, setEditorWarning] = useState(0);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [drawer, setDrawer] = useState<{ open: boolean; threadId: string | null }>({
    open: false,
    threadId: null,
  });
  const [reportTarget, setReportTarget] = useState<ReportTarget | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Comment | null>(null);
  const [deleting, setDeleting] = useState(false);
  const isWide = useMediaQuery(WIDE_QUERY);
  /** The `highlight` event of the draft, which its first save waits for. */
  const creating = useRef(new Map<string, Promise<Highlight | null>>());

  const highlights = useMemo(() => data?.highlights ?? [], [data]);
  const drawn = useMemo(
    () => drawnHighlights(highlights, data?.comments ?? [], currentUserId, Date.now()),
    [highlights, data, currentUserId],
  );
  const layer = useHighlightLayer(boxRef, html, drawn, draft, activeId);
  const isOwner = currentUserId !== null && currentUserId === manuscriptOwnerId;

  const context = useMemo<writes.WriteContext>(
    () => ({ manuscriptId, room, update }),
    [manuscriptId, room, update],
  );

  const { threads, orphans } = useMemo(
    () =>
      buildThreads({
        highlights: drawn,
        comments: data?.comments ?? [],
        placements: layer.placements,
        orphans: layer.orphans,
        draft,
        currentUserId,
      }),
    [data, drawn, layer.placements, layer.orphans, draft, currentUserId],
  );

  const commentCount = data?.comments.length ?? 0;

  const warnEditorOpen = useCallback(() => {
    flash(MESSAGES.saveOrCloseComment);
    setEditorWarning((count) => count + 1);
    // On a phone the open editor may sit in the closed drawer: show it.
    if (!isWide && editor) setDrawer({ open: true, threadId: editor.selectionId });
  }, [flash, isWide, editor]);

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
    [editor, warnEditorOpen],
  );

  const openDrawer = useCallback((threadId: string | null = null) => {
    setDrawer({ open: true, threadId });
  }, []);
  const closeDrawer = useCallback(() => setDrawer({ open: false, threadId: null }), []);

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
    [editor, warnEditorOpen, highlights.length, isWide, context, flash],
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
  }, [editor, draft, highlights, finishDraft, update, context, flash, refetch]);

  const removeOwnHighlight = useCallback(
    (selectionId: string) => {
      update((current) => removeHighlight(current, selectionId));
      writes.cancelNewComment(context, selectionId, true).catch((error: unknown) => {
        flash(errorMessage(error));
        refetch();
      });
    },
    [update, context, flash, refetch],
  );

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

  const rank = useCallback(
    (comment: Comment, dir: RankDirection) => {
      writes.rankComment(context, comment.id, dir).catch((error: unknown) => {
        flash(errorMessage(error));
      });
    },
    [context, flash],
  );

  const activate = useCallback(
    (id: string | null, options: { reveal?: boolean } = {}) => {
      setActiveId(id);
      if (id && options.reveal && !isWide) setDrawer({ open: true, threadId: id });
    },
    [isWide],
  );

  const handleDelete = async () => {
    if (!deleteTarget) return;
    setDeleting(true);
    try {
      await writes.deleteComment(context, deleteTarget.id);
      if (editor?.kind === 'edit' && editor.commentId === deleteTarget.id) setEditor(null);
      setDeleteTarget(null);
    } catch (error) {
      flash(errorMessage(error));
    } finally {
      setDeleting(false);
    }
  };

  // A click on a highlight opens its thread; a click elsewhere in the text lets it go.
  useEffect(() => {
    const box = boxRef.current;
    if (!box || !enabled) return;
    const handleClick = (event: MouseEvent) => {
      const selection = window.getSelection();
      if (selection && !selection.isCollapsed) return;
      const target = event.target instanceof Element ? event.target : null;
      const mark = target?.closest<HTMLElement>('mark[data-hl]');
      if (mark && box.contains(mark) && mark.dataset.hl) {
        activate(mark.dataset.hl, { reveal: true });
      } else if (!editor) {
        setActiveId(null);
      }
    };
    box.addEventListener('click', handleClick);
    return () => box.removeEventListener('click', handleClick);
  }, [boxRef, enabled, activate, editor]);

  const api: CommentsApi = {
    enabled,
    manuscriptId,
    currentUserId,
    isOwner,
    loginUrl: `/auth/login?next=${encodeURIComponent(`/manuscript/document/reader/${manuscriptId}`)}`,
    threads,
    orphans,
    commentCount,
    loading,
    status,
    users,
    activeId,
    activate,
    editor,
    editorWarning,
    openEditor,
    startComment,
    saveEditor,
    cancelEditor,
    rank,
    removeHighlight: removeOwnHighlight,
    askDelete: setDeleteTarget,
    askReport: setReportTarget,
    firstMark: layer.firstMark,
    drawVersion: layer.drawVersion,
    anchorOfSelection: layer.anchorOfSelection,
    isWide,
    drawer,
    openDrawer,
    closeDrawer,
    boxRef,
  };

  return (
    <CommentsContext.Provider value={api}>
      {children}
      {enabled ? <SelectionCommenter /> : null}
      {reportTarget ? (
        <ReportDialog target={reportTarget} onClose={() => setReportTarget(null)} />
      ) : null}
      {deleteTarget ? (
        <ConfirmDialog
          title="Delete this comment?"
          confirmLabel="Delete"
          tone="danger"
          busy={deleting}
          onConfirm={() => void handleDelete()}
          onCancel={() => setDeleteTarget(null)}
        >
          “{deleteTarget.private ? MESSAGES.privateComments : deleteTarget.comment}”
        </ConfirmDialog>
      ) : null}
    </CommentsContext.Provider>
  );
}
