// The reader's comments context: what the components under <CommentsProvider> can read and do.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  MESSAGES,
  type Comment,
  type CommentAuthor,
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
import { useCommentEditor, type Editor } from './use-comment-editor.ts';
import { useHighlightLayer } from './use-highlight-layer.ts';
import { buildThreads, drawnHighlights, type Thread } from './threads.ts';
import { ThreadsProvider } from './threads-context.tsx';
import { chapterHeadings, chapterOf, filterThreads, useMarginFilters } from './margin-filter.ts';
import { useMediaQuery, WIDE_QUERY } from './use-media-query.ts';

export interface ReportTarget {
  model: ReportModel;
  id: number;
  /** What the modal says is reported. */
  label: string;
}

export type { Thread };

interface CommentsApi {
  /** False while no text is shown (gates, inking): nothing is loaded or connected. */
  enabled: boolean;
  manuscriptId: number;
  currentUserId: number | null;
  isOwner: boolean;
  loginUrl: string;
  /** The threads the margin filters let through (issue 16). */
  threads: Thread[];
  /** Every thread, unfiltered (the filter bar lists their readers). */
  allThreads: Thread[];
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
  const [activeId, setActiveId] = useState<string | null>(null);
  const [drawer, setDrawer] = useState<{ open: boolean; threadId: string | null }>({
    open: false,
    threadId: null,
  });
  const [reportTarget, setReportTarget] = useState<ReportTarget | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<Comment | null>(null);
  const [deleting, setDeleting] = useState(false);
  const isWide = useMediaQuery(WIDE_QUERY);

  // By their arrays, not the cache's object: a catch-up that brought nothing new (a new cursor
  // only) must not anchor and draw a book's 2,000 highlights again.
  const dataHighlights = data?.highlights;
  const dataComments = data?.comments;
  const highlights = useMemo(() => dataHighlights ?? [], [dataHighlights]);
  const comments = useMemo(() => dataComments ?? [], [dataComments]);
  const context = useMemo<writes.WriteContext>(
    () => ({ manuscriptId, room, update }),
    [manuscriptId, room, update],
  );
  const { draft, setEditor, editorApi } = useCommentEditor({
    context,
    highlights,
    isWide,
    flash,
    update,
    refetch,
    setActiveId,
    setDrawer,
  });
  const { editor } = editorApi;

  const drawn = useMemo(
    () => drawnHighlights(highlights, comments, currentUserId, Date.now()),
    [highlights, comments, currentUserId],
  );
  const layer = useHighlightLayer(boxRef, html, drawn, draft, activeId);
  const isOwner = currentUserId !== null && currentUserId === manuscriptOwnerId;

  const { threads, orphans } = useMemo(
    () =>
      buildThreads({
        highlights: drawn,
        comments,
        placements: layer.placements,
        orphans: layer.orphans,
        draft,
        currentUserId,
      }),
    [comments, drawn, layer.placements, layer.orphans, draft, currentUserId],
  );

  const commentCount = comments.length;

  // Issue 16: the margin's filters (in the URL) and the live resolution of a thread.
  const [filters] = useMarginFilters();
  const filtered = useMemo(() => {
    const headings = filters.chapter ? chapterHeadings(boxRef.current) : [];
    const chapter = (thread: Thread) => chapterOf(boxRef.current, headings, thread.id);
    return {
      threads: filterThreads(threads, filters, currentUserId, chapter),
      orphans: filterThreads(orphans, filters, currentUserId, () => null),
    };
  }, [threads, orphans, filters, currentUserId, boxRef]);
  const handleResolved = useCallback(
    (commentId: number, resolvedAt: string | null) =>
      update((current) => ({
        ...current,
        comments: current.comments.map((comment) =>
          comment.id === commentId ? { ...comment, resolved_at: resolvedAt } : comment,
        ),
      })),
    [update],
  );

  const openDrawer = useCallback((threadId: string | null = null) => {
    setDrawer({ open: true, threadId });
  }, []);
  const closeDrawer = useCallback(() => setDrawer({ open: false, threadId: null }), []);

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

  // One object while nothing in it changes: the reader page re-renders as the reading position
  // moves, and every card, the margin and the drawer read this context.
  const loginUrl = `/auth/login?next=${encodeURIComponent(`/manuscript/document/reader/${manuscriptId}`)}`;
  const api = useMemo<CommentsApi>(
    () => ({
      enabled,
      manuscriptId,
      currentUserId,
      isOwner,
      loginUrl,
      threads: filtered.threads,
      allThreads: threads,
      orphans: filtered.orphans,
      commentCount,
      loading,
      status,
      users,
      activeId,
      activate,
      ...editorApi,
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
    }),
    [
      enabled,
      manuscriptId,
      currentUserId,
      isOwner,
      loginUrl,
      filtered,
      threads,
      commentCount,
      loading,
      status,
      users,
      activeId,
      activate,
      editorApi,
      rank,
      removeOwnHighlight,
      layer.firstMark,
      layer.drawVersion,
      layer.anchorOfSelection,
      isWide,
      drawer,
      openDrawer,
      closeDrawer,
      boxRef,
    ],
  );

  return (
    <CommentsContext.Provider value={api}>
      <ThreadsProvider
        manuscriptId={manuscriptId}
        room={room}
        enabled={enabled}
        onError={flash}
        onResolved={handleResolved}
      >
        {children}
      </ThreadsProvider>
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
