import { describe, expect, it, vi } from 'vitest';
import { SOCKET_OPTIONS, type CommentAuthor } from '@margins/common';
import { ManuscriptRoom } from './manuscript-room.ts';
import { SOCKET_CONNECT_OPTIONS } from './socket.ts';
import { TestSocket } from './test-socket.ts';

const june: CommentAuthor = { id: 1, display_name: 'June Okafor', handle: 'june', picture: null };
const ada: CommentAuthor = { id: 2, display_name: 'Ada Quill', handle: 'ada', picture: null };

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function joinServer(users: CommentAuthor[] = [june]) {
  return {
    join: (payload: { room: string }) => ({ ok: true, room: payload.room, users }),
  };
}

describe('the socket settings', () => {
  it('are SPEC §9’s: same host, /socket.io, credentials, backoff 1 s → 5 s, jitter 0.5, unlimited, 20 s', () => {
    expect(SOCKET_CONNECT_OPTIONS).toMatchObject({
      path: '/socket.io',
      withCredentials: true,
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      reconnectionAttempts: Infinity,
      timeout: 20000,
    });
    expect(SOCKET_OPTIONS.reconnectionAttempts).toBe(Infinity);
  });
});

describe('a manuscript room', () => {
  it('joins manuscript-{id} on connect and again on every reconnect, and says which', async () => {
    const socket = new TestSocket(joinServer());
    const onJoined = vi.fn();
    const onStatus = vi.fn();
    const room = new ManuscriptRoom(socket.socket, 31, { onJoined, onStatus });
    room.start();
    await flush();
    expect(socket.sent('join')).toEqual([{ room: 'manuscript-31' }]);
    expect(onJoined).toHaveBeenLastCalledWith(false);
    expect(room.currentStatus).toBe('live');

    socket.drop();
    expect(onStatus).toHaveBeenLastCalledWith('reconnecting');
    socket.fire('connect_error', new Error('refused'));
    expect(room.currentStatus).toBe('reconnecting');
    socket.connect();
    await flush();
    expect(socket.sent('join')).toHaveLength(2);
    expect(onJoined).toHaveBeenLastCalledWith(true);
    expect(onStatus).toHaveBeenLastCalledWith('live');
  });

  it('keeps the strip of connected users from the join answer, join_room and leave_room', async () => {
    const socket = new TestSocket(joinServer([june]));
    const onPresence = vi.fn();
    new ManuscriptRoom(socket.socket, 31, { onPresence }).start();
    await flush();
    expect(onPresence).toHaveBeenLastCalledWith([june]);
    socket.fire('join_room', { room: 'manuscript-31', user: ada });
    expect(onPresence).toHaveBeenLastCalledWith([june, ada]);
    socket.fire('join_room', { room: 'manuscript-31', user: ada }); // a second tab
    expect(onPresence).toHaveBeenLastCalledWith([june, ada]);
    socket.fire('join_room', { room: 'manuscript-99', user: { ...ada, id: 9 } });
    expect(onPresence).toHaveBeenLastCalledWith([june, ada]);
    socket.fire('leave_room', { room: 'manuscript-31', user: june });
    expect(onPresence).toHaveBeenLastCalledWith([ada]);
  });

  it('passes on its own room’s events only, and `error` events as messages', async () => {
    const socket = new TestSocket(joinServer());
    const onNewComment = vi.fn();
    const onError = vi.fn();
    new ManuscriptRoom(socket.socket, 31, { onNewComment, onError }).start();
    await flush();
    socket.fire('new_comment', { room: 'manuscript-31', comment: { id: 1 } });
    socket.fire('new_comment', { room: 'manuscript-32', comment: { id: 2 } });
    expect(onNewComment).toHaveBeenCalledTimes(1);
    socket.fire('error', {
      error: 'You no longer have access to this manuscript.',
      room: 'manuscript-31',
    });
    expect(onError).toHaveBeenCalledWith('You no longer have access to this manuscript.');
  });

  it('sends writes with their ack while connected, and answers null when not (HTTP then)', async () => {
    const socket = new TestSocket({
      ...joinServer(),
      rank_comment: () => ({ ok: true, id: 5, rank: 1 }),
    });
    const room = new ManuscriptRoom(socket.socket, 31, {});
    room.start();
    await flush();
    const answer = await room.send('rank_comment', {
      room: room.room,
      dir: 'up',
      comment_id: 5,
    });
    expect(answer).toMatchObject({ ok: true, id: 5 });
    socket.drop();
    expect(
      await room.send('rank_comment', { room: room.room, dir: 'up', comment_id: 5 }),
    ).toBeNull();
    expect(socket.sent('rank_comment')).toHaveLength(1);
  });

  it('leaves the room and closes the socket when stopped', async () => {
    const socket = new TestSocket(joinServer());
    const room = new ManuscriptRoom(socket.socket, 31, {});
    room.start();
    await flush();
    room.stop();
    expect(socket.sent('leave')).toEqual([{ room: 'manuscript-31' }]);
    expect(socket.connected).toBe(false);
  });
});
