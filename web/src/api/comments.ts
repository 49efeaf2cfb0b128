import {
  commentDeleteResponse,
  commentListResponse,
  commentRankResponse,
  commentSaveResponse,
  reportReasonsResponse,
  type Comment,
  type CommentListResponse,
  type CommentSaveResponse,
  type CreateCommentBody,
  type Highlight,
  type RankDirection,
  type ReportBody,
  type ReportReason,
} from '@margins/common';
import { queryOptions } from '@tanstack/react-query';
import { api } from './client.ts';

// The comment calls of API.md over HTTP, and the pure functions that merge what arrives (an
// answer, an ack, a broadcast, a catch-up) into the cached list — by id, so nothing doubles.

/** What the reader keeps of a manuscript's comments (the TanStack Query cache entry). */
export interface CommentsData {
  comments: Comment[];
  highlights: Highlight[];
  /** `since` for the next catch-up (the server's cursor). */
  cursor: string;
}

export const commentsKey = (manuscriptId: number) => ['comments', manuscriptId] as const;
export const reportReasonsKey = ['report-reasons'] as const;

/** A list answer with each comment's author put back in its place (see `withAuthors`). */
type CommentFeed = Omit<CommentListResponse, 'comments' | 'authors'> & {
  comments: Comment[];
};

/** GET /comments/manuscript/:id, or only what changed since an earlier cursor. */
export async function fetchComments(manuscriptId: number, since?: string): Promise<CommentFeed> {
  const query = since ? `?since=${encodeURIComponent(since)}` : '';
  const response = commentListResponse.parse(
    await api.get(`/comments/manuscript/${manuscriptId}${query}`),
  );
  return withAuthors(response);
}

/**
 * The list sends each writer once (`authors`, by id); the rest of the client works on whole
 * comments, as the socket and the save answers send them.
 */
function withAuthors(response: CommentListResponse): CommentFeed {
  const { authors, comments, ...rest } = response;
  return {
    ...rest,
    comments: comments.map((comment) => ({
      ...comment,
      author: authors[String(comment.author_id)] ?? {
        id: comment.author_id,
        display_name: '',
        handle: null,
        picture: null,
      },
    })),
  };
}

/** POST /comments/manuscript/:id: a comment, creating its highlight when new. */
export async function createCommentHttp(
  manuscriptId: number,
  body: CreateCommentBody,
): Promise<CommentSaveResponse> {
  return commentSaveResponse.parse(await api.post(`/comments/manuscript/${manuscriptId}`, body));
}

/** PUT /comments/:id: new text (blank deletes). */
export async function updateCommentHttp(id: number, text: string): Promise<CommentSaveResponse> {
  return commentSaveResponse.parse(await api.put(`/comments/${id}`, { comment: text }));
}

/** DELETE /comments/:id. */
export async function deleteCommentHttp(id: number) {
  return commentDeleteResponse.parse(await api.delete(`/comments/${id}`));
}

/** POST /comments/:id/rank/:dir. */
export async function rankCommentHttp(id: number, dir: RankDirection): Promise<Comment> {
  return commentRankResponse.parse(await api.post(`/comments/${id}/rank/${dir}`)).comment;
}

/** GET /report/reasons. */
export async function fetchReportReasons(): Promise<ReportReason[]> {
  return reportReasonsResponse.parse(await api.get('/report/reasons')).reasons;
}

/** POST /report/ (400 → ApiError with "Please check your fields" and the field errors). */
export async function submitReport(body: ReportBody): Promise<void> {
  await api.post('/report/', body);
}

// ---- Merging into the cache -----------------------------------------------------------------

const time = (value: string) => Date.parse(value) || 0;

/** Whether two JSON values (as an answer parsed them) hold the same data. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => key in right && sameJson(left[key], right[key]));
}

/** The cache entry of a first load. */
function fromList(response: CommentFeed): CommentsData {
  return {
    comments: response.comments,
    highlights: response.highlights,
    cursor: response.cursor,
  };
}

/**
 * A manuscript's comments as the reader first loads them (use-comment-data.ts keeps them live
 * from there; the reader page asks for them early, reader-helpers.ts). Kept until the page
 * goes: the room's broadcasts and catch-ups keep the entry current.
 */
export function commentsQuery(manuscriptId: number) {
  return queryOptions({
    queryKey: commentsKey(manuscriptId),
    queryFn: async () => fromList(await fetchComments(manuscriptId)),
    staleTime: Infinity,
  });
}

/**
 * Adds or replaces a comment by id. An older copy (a broadcast overtaken by an ack) does not
 * replace a newer one, and a broadcast's missing my_vote keeps the vote we know.
 */
export function upsertComment(data: CommentsData, incoming: Comment): CommentsData {
  const index = data.comments.findIndex((comment) => comment.id === incoming.id);
  if (index === -1) return { ...data, comments: [...data.comments, incoming] };
  const current = data.comments[index]!;
  if (time(incoming.updated) < time(current.updated)) return data;
  const merged: Comment = {
    ...incoming,
    ...(incoming.my_vote === undefined && current.my_vote !== undefined
      ? { my_vote: current.my_vote }
      : {}),
  };
  // A repeat (the catch-up's cursor lies seconds in the past) changes nothing: the same arrays
  // keep a book's 2,000 highlights from being placed and drawn again (issue 18).
  if (sameJson(merged, current)) return data;
  const comments = [...data.comments];
  comments[index] = merged;
  return { ...data, comments };
}

/** Adds or replaces a highlight by selection_id (a newer re-anchoring wins). */
export function upsertHighlight(data: CommentsData, incoming: Highlight): CommentsData {
  const index = data.highlights.findIndex((item) => item.selection_id === incoming.selection_id);
  if (index === -1) return { ...data, highlights: [...data.highlights, incoming] };
  const current = data.highlights[index]!;
  if (time(incoming.updated) < time(current.updated) || sameJson(incoming, current)) return data;
  const highlights = [...data.highlights];
  highlights[index] = incoming;
  return { ...data, highlights };
}

/** Drops a comment (id null: nothing saved) and, when the server says so, its highlight. */
export function removeComment(
  data: CommentsData,
  removed: { id: number | null; selection_id: string; highlight_removed: boolean },
): CommentsData {
  let next = data;
  if (removed.id !== null && data.comments.some((comment) => comment.id === removed.id)) {
    next = { ...next, comments: next.comments.filter((comment) => comment.id !== removed.id) };
  }
  if (removed.highlight_removed) next = removeHighlight(next, removed.selection_id);
  return next;
}

/** Drops a highlight and whatever comments it still had. */
export function removeHighlight(data: CommentsData, selectionId: string): CommentsData {
  if (!data.highlights.some((item) => item.selection_id === selectionId)) return data;
  return {
    ...data,
    highlights: data.highlights.filter((item) => item.selection_id !== selectionId),
    comments: data.comments.filter((comment) => comment.selection_id !== selectionId),
  };
}

/** A comment_ranked broadcast: the new rank (our own vote stays what we know). */
export function applyRank(data: CommentsData, commentId: number, rank: number): CommentsData {
  const index = data.comments.findIndex((comment) => comment.id === commentId);
  if (index === -1 || data.comments[index]!.rank === rank) return data;
  const comments = [...data.comments];
  comments[index] = { ...comments[index]!, rank };
  return { ...data, comments };
}

/** A catch-up answer (GET …?since=): upserts what changed, drops the tombstones. */
export function applyCatchUp(data: CommentsData, response: CommentFeed): CommentsData {
  let next = data;
  for (const highlight of response.highlights) next = upsertHighlight(next, highlight);
  for (const comment of response.comments) next = upsertComment(next, comment);
  for (const id of response.deleted.comments) {
    next = removeComment(next, { id, selection_id: '', highlight_removed: false });
  }
  for (const selectionId of response.deleted.highlights) next = removeHighlight(next, selectionId);
  return next.cursor === response.cursor ? next : { ...next, cursor: response.cursor };
}
