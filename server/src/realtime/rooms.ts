import { roomName } from '@margins/common';

export { roomName };

/** The room of one user's sockets in one manuscript room (for per-viewer broadcasts). */
export const userRoom = (manuscriptId: number, userId: number): string =>
  `${roomName(manuscriptId)}:user-${userId}`;

/** The room of the anonymous sockets in one manuscript room (to remove them together). */
export const anonymousRoom = (manuscriptId: number): string =>
  `${roomName(manuscriptId)}:anonymous`;

/** The room of the sockets opened with one session (their handshake's cookie). */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
