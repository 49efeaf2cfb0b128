import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  applyCatchUp,
  applyRank,
  commentsKey,
  commentsQuery,
  fetchComments,
  removeComment,
  upsertComment,
  upsertHighlight,
  type CommentsData,
} from '../../api/comments.ts';
import type { RoomHandlers } from '../../realtime/manuscript-room.ts';
import type { MarginsSocket } from '../../realtime/socket.ts';
import { useManuscriptRoom } from '../../realtime/use-manuscript-room.ts';

/**
 * A manuscript's comments and highlights in the query cache, kept live: the first load over
 * HTTP, then the room's broadcasts merged by id, and after every (re)join a catch-up call
 * (`?since=` the last cursor) for whatever happened while the socket was away.
 */
export function useCommentData(
  manuscriptId: number,
  enabled: boolean,
  onError: (message: string) => void,
  socketFactory?: () => MarginsSocket,
) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...commentsQuery(manuscriptId),
    enabled,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const update = useCallback(
    (change: (data: CommentsData) => CommentsData) => {
      queryClient.setQueryData<CommentsData>(commentsKey(manuscriptId), (old) =>
        old ? change(old) : old,
      );
    },
    [queryClient, manuscriptId],
  );

  const catchingUp = useRef(false);
  const catchUp = useCallback(async () => {
    const current = queryClient.getQueryData<CommentsData>(commentsKey(manuscriptId));
    if (!current || catchingUp.current) return;
    catchingUp.current = true;
    try {
      const changes = await fetchComments(manuscriptId, current.cursor);
      update((data) => applyCatchUp(data, changes));
    } catch {
      // The next reconnect tries again; the page keeps what it has.
    } finally {
      catchingUp.current = false;
    }
  }, [queryClient, manuscriptId, update]);

  const joined = useRef(false);
  const handlers: RoomHandlers = {
    onJoined: () => {
      joined.current = true;
      void catchUp();
    },
    onNewHighlight: (event) => update((data) => upsertHighlight(data, event.highlight)),
    onNewComment: (event) => update((data) => upsertComment(data, event.comment)),
    onDeleteComment: (event) =>
      update((data) =>
        removeComment(data, {
          id: event.comment.id,
          selection_id: event.comment.selection_id,
          highlight_removed: event.highlight_removed,
        }),
      ),
    onCommentRanked: (event) => update((data) => applyRank(data, event.comment_id, event.rank)),
    onError,
  };
  const { room, status, users } = useManuscriptRoom(manuscriptId, enabled, handlers, socketFactory);

  // Joined before the first load finished: what happened in between comes with a catch-up.
  const loaded = query.isSuccess;
  useEffect(() => {
    if (loaded && joined.current) void catchUp();
  }, [loaded, catchUp]);

  return {
    data: query.data ?? null,
    loading: query.isPending && enabled,
    failed: query.isError,
    room,
    status,
    users,
    update,
    refetch: () => void query.refetch(),
  };
}
