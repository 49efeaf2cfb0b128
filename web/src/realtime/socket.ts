import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_OPTIONS,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@margins/common';

/** The app's socket, typed by the events of API.md (common/src/schemas/comments-socket.ts). */
export type MarginsSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How long a write waits for its acknowledgement before it counts as failed. */
export const ACK_TIMEOUT_MS = 10_000;

/**
 * The options of SPEC §9 and API.md: same host, namespace /, path /socket.io, the session
 * cookie sent along, reconnection with backoff 1 s → 5 s, jitter 0.5, unlimited, 20 s timeout.
 */
export const SOCKET_CONNECT_OPTIONS = {
  path: '/socket.io',
  withCredentials: true,
  autoConnect: false,
  reconnection: true,
  ...SOCKET_OPTIONS,
} as const;

/** A new, not yet connected socket to the page's own host. */
export function createSocket(): MarginsSocket {
  return io(SOCKET_CONNECT_OPTIONS);
}
