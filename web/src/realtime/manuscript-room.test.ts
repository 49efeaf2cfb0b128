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

  it('applies presence deltas: the final state of each user who came or went', async () => {
    const socket = new TestSocket(joinServer([june]));
    const onPresence = vi.fn();
    new ManuscriptRoom(socket.socket, 31, { onPresence }).start();
    await flush();
    const kit: CommentAuthor = { id: 3, display_name: 'Kit Marlowe', handle: 'kit', picture: null };
    // Ada arrived; June (already in the snapshot) is sent again: no duplicate.
    socket.fire('presence', { room: 'manuscript-31', joined: [ada, june], left: [] });
    expect(onPresence).toHaveBeenLastCalledWith([ada, june]);
    // Kit came and went within the window: a leave of someone never shown changes nothing.
    socket.fire('presence', { room: 'manuscript-31', joined: [], left: [kit, june] });
    expect(onPresence).toHaveBeenLastCalledWith([ada]);
    socket.fire('presence', { room: 'manuscript-99', joined: [kit], left: [ada] });
    expect(onPresence).toHaveBeenLastCalledWith([ada]);
  });

  it('told the server is busy, says so and joins again after the wait, with jitter', async () => {
    vi.useFakeTimers();
    try {
      let busy = true;
      const socket = new TestSocket({
        join: (payload: { room: string }) =>
          busy
            ? { ok: false, error: 'busy: retrying in 4 s', retry_after: 4 }
            : { ok: true, room: payload.room, users: [june] },
      });
      const onError = vi.fn();
      const onStatus = vi.fn();
      const room = new ManuscriptRoom(socket.socket, 31, { onError, onStatus });
      room.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(onError).toHaveBeenCalledWith('busy: retrying in 4 s');
      expect(room.currentStatus).toBe('reconnecting');
      busy = false;
      // Not before half the wait (jitter 0.5), certainly after one and a half.
      await vi.advanceTimersByTimeAsync(1_999);
      expect(socket.sent('join')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(4_001);
      expect(socket.sent('join')).toHaveLength(2);
      expect(room.currentStatus).toBe('live');
    } finally {
      vi.useRealTimers();
    }
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

  it('answers null (HTTP then) for a write whose connection dropped before its ack', async () => {
    const socket = new TestSocket({
      ...joinServer(),
      rank_comment: () => TestSocket.dropBeforeAck,
    });
    const room = new ManuscriptRoom(socket.socket, 31, {});
    room.start();
    await flush();
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
