import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactionName, ReactionSet, Reply, ThreadsResponse } from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import * as threads from '../../api/threads.ts';
import type { ManuscriptRoom } from '../../realtime/manuscript-room.ts';

// Replies and reactions of the reader's margin comments (issue 16), kept live: loaded over HTTP,
// then the room's new_reply / delete_reply / reply_ranked / reactions_changed events merged in,
// and loaded again after every (re)join for what was missed.

interface ThreadsApi {
  repliesOf(commentId: number): Reply[];
  reactionsOf(commentId: number): ReactionSet['reactions'];
  reply(commentId: number, text: string): Promise<boolean>;
  editReply(replyId: number, text: string): Promise<boolean>;
  deleteReply(replyId: number): void;
  react(commentId: number, reaction: ReactionName, on: boolean): void;
  resolve(commentId: number, resolved: boolean): void;
}

const ThreadsContext = createContext<ThreadsApi | null>(null);

/** The threads of the reader page; null outside ThreadsProvider (tests of single cards). */
export const useThreads = (): ThreadsApi | null => useContext(ThreadsContext);

function upsertReply(data: ThreadsResponse, reply: Reply): ThreadsResponse {
  const others = data.replies.filter((row) => row.id !== reply.id);
  const replies = [...others, reply].sort(
    (a, b) => Date.parse(a.created) - Date.parse(b.created) || a.id - b.id,
  );
  return { ...data, replies };
}

function setReactions(data: ThreadsResponse, set: ReactionSet): ThreadsResponse {
  const others = data.reactions.filter((row) => row.comment_id !== set.comment_id);
  return { ...data, reactions: set.reactions.length > 0 ? [...others, set] : others };
}

export function ThreadsProvider({
  manuscriptId,
  room,
  enabled,
  onError,
  onResolved,
  children,
}: {
  manuscriptId: number;
  room: ManuscriptRoom | null;
  enabled: boolean;
  onError: (message: string) => void;
  /** A comment's resolution changed (here or live): the comments cache keeps resolved_at. */
  onResolved: (commentId: number, resolvedAt: string | null) => void;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const key = threads.threadsKey(manuscriptId);
  const query = useQuery({
    queryKey: key,
    // Only the two lists are kept, so an older server's answer (no threads) reads as empty.
    queryFn: async (): Promise<ThreadsResponse> => {
      const answer: Partial<ThreadsResponse> = await threads.fetchThreads(manuscriptId);
      return {
        replies: Array.isArray(answer.replies) ? answer.replies : [],
        reactions: Array.isArray(answer.reactions) ? answer.reactions : [],
      };
    },
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const update = useCallback(
    (change: (data: ThreadsResponse) => ThreadsResponse) =>
      queryClient.setQueryData<ThreadsResponse>(threads.threadsKey(manuscriptId), (old) =>
        old ? change(old) : old,
      ),
    [queryClient, manuscriptId],
  );
  const { refetch } = query;

  useEffect(() => {
    if (!room) return;
    const stops = [
      room.listen('new_reply', (event) => update((data) => upsertReply(data, event.reply))),
      room.listen('delete_reply', (event) =>
        update((data) => ({
          ...data,
          replies: data.replies.filter((row) => row.id !== event.reply.id),
        })),
      ),
      room.listen('reply_ranked', (event) =>
        update((data) => ({
          ...data,
          replies: data.replies.map((row) =>
            row.id === event.reply_id ? { ...row, rank: event.rank } : row,
          ),
        })),
      ),
      room.listen('reactions_changed', (event) =>
        update((data) =>
          setReactions(data, { comment_id: event.comment_id, reactions: event.reactions }),
        ),
      ),
      room.listen('comment_resolved', (event) => onResolved(event.comment_id, event.resolved_at)),
      // Our own join (with the list of users): catch up on what happened while away.
      room.listen('join_room', (event) => {
        if (event.users) void refetch();
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }, [room, update, refetch, onResolved]);

  const data = query.data;
  const api = useMemo<ThreadsApi>(() => {
    const fail = (error: unknown) => {
      onError(errorMessage(error));
      return false;
    };
    return {
      repliesOf: (commentId) => data?.replies.filter((row) => row.comment_id === commentId) ?? [],
      reactionsOf: (commentId) =>
        data?.reactions.find((row) => row.comment_id === commentId)?.reactions ?? [],
      reply: (commentId, text) =>
        threads.postReply(commentId, text).then((reply) => {
          update((current) => upsertReply(current, reply));
          return true;
        }, fail),
      editReply: (replyId, text) =>
        threads.editReply(replyId, text).then((reply) => {
          update((current) => upsertReply(current, reply));
          return true;
        }, fail),
      deleteReply: (replyId) => {
        threads.removeReply(replyId).then(
          () =>
            update((current) => ({
              ...current,
              replies: current.replies.filter((row) => row.id !== replyId),
            })),
          fail,
        );
      },
      react: (commentId, reaction, on) => {
        threads
          .setReaction(commentId, reaction, on)
          .then((set) => update((current) => setReactions(current, set)), fail);
      },
      resolve: (commentId, resolved) => {
        threads
          .setResolved(commentId, resolved)
          .then((comment) => onResolved(comment.id, comment.resolved_at ?? null), fail);
      },
    };
  }, [data, update, onError, onResolved]);

  return <ThreadsContext.Provider value={api}>{children}</ThreadsContext.Provider>;
}
