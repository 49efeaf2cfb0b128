import type {
  FeedbackExport,
  ReactionName,
  ReactionSet,
  Reply,
  Comment,
  ThreadsResponse,
} from '@margins/common';
import { api } from './client.ts';

// Threads on margin comments (issue 16): replies, resolving, reactions, and the author's export.

export const threadsKey = (manuscriptId: number) => ['threads', manuscriptId] as const;

export const fetchThreads = (manuscriptId: number) =>
  api.get<ThreadsResponse>(`/comments/manuscript/${manuscriptId}/threads`);

export const postReply = async (commentId: number, text: string) =>
  (await api.post<{ reply: Reply }>(`/comments/${commentId}/replies`, { comment: text })).reply;

export const editReply = async (replyId: number, text: string) =>
  (await api.put<{ reply: Reply }>(`/comments/replies/${replyId}`, { comment: text })).reply;

export const removeReply = (replyId: number) =>
  api.delete<{ ok: true; id: number; comment_id: number }>(`/comments/replies/${replyId}`);

export const setResolved = async (commentId: number, resolved: boolean) => {
  const url = `/comments/${commentId}/resolve`;
  const answer = resolved
    ? await api.post<{ comment: Comment }>(url)
    : await api.delete<{ comment: Comment }>(url);
  return answer.comment;
};

/** Adds (on) or removes a reaction; both idempotent, so a double click cannot flip it back. */
export const setReaction = (commentId: number, reaction: ReactionName, on: boolean) => {
  const url = `/comments/${commentId}/reactions/${reaction}`;
  return on ? api.put<ReactionSet>(url) : api.delete<ReactionSet>(url);
};

export const startDocxExport = async (manuscriptId: number) =>
  (await api.post<{ export: FeedbackExport }>(`/manuscript/${manuscriptId}/export/docx`)).export;

export const fetchExport = async (manuscriptId: number, exportId: string) =>
  (await api.get<{ export: FeedbackExport }>(`/manuscript/${manuscriptId}/export/${exportId}`))
    .export;

export const exportDownloadUrl = (manuscriptId: number, exportId: string) =>
  `/manuscript/${manuscriptId}/export/${exportId}/download`;
