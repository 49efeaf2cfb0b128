import { useEffect, useRef, useState } from 'react';
import type { CommentAuthor } from '@margins/common';
import { ManuscriptRoom, type ConnectionStatus, type RoomHandlers } from './manuscript-room.ts';
import { createSocket, type MarginsSocket } from './socket.ts';

/**
 * The live room of a manuscript while the reader shows it: its connection status, the
 * connected users, and the room itself for writes. Handlers may change between renders.
 * `enabled` false (no text shown) keeps the socket closed.
 */
export function useManuscriptRoom(
  manuscriptId: number,
  enabled: boolean,
  handlers: RoomHandlers,
  socketFactory: () => MarginsSocket = createSocket,
): { room: ManuscriptRoom | null; status: ConnectionStatus; users: CommentAuthor[] } {
  const [room, setRoom] = useState<ManuscriptRoom | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  const [users, setUsers] = useState<CommentAuthor[]>([]);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  const factoryRef = useRef(socketFactory);

  useEffect(() => {
    if (!enabled) return;
    const forward: RoomHandlers = {
      onStatus: (next) => {
        setStatus(next);
        handlersRef.current.onStatus?.(next);
      },
      onPresence: (next) => {
        setUsers(next);
        handlersRef.current.onPresence?.(next);
      },
      onJoined: (again) => handlersRef.current.onJoined?.(again),
      onNewHighlight: (event) => handlersRef.current.onNewHighlight?.(event),
      onNewComment: (event) => handlersRef.current.onNewComment?.(event),
      onDeleteComment: (event) => handlersRef.current.onDeleteComment?.(event),
      onCommentRanked: (event) => handlersRef.current.onCommentRanked?.(event),
      onError: (message) => handlersRef.current.onError?.(message),
    };
    const next = new ManuscriptRoom(factoryRef.current(), manuscriptId, forward);
    next.start();
    setRoom(next);
    return () => {
      next.stop();
      setRoom(null);
      setStatus('connecting');
      setUsers([]);
    };
  }, [manuscriptId, enabled]);

  return { room, status, users };
}
