// The realtime anchor: a bare socket.io server on the same machine that does what the clients
// of the realtime benchmarks ask for and nothing else — no session, no policy, no database, no
// presence. `join` puts the socket in the room and acks; `highlight` acks; `save_comment` acks
// with a new id and broadcasts new_comment to the room but the writer. What Margins adds on top
// of this floor is what the benchmarks' ratios measure.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

type Ack = (answer: object) => void;

export async function startAnchor(port = 0): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const http = createServer();
  const io = new Server(http, { path: '/socket.io', serveClient: false });
  let nextId = 1;
  io.on('connection', (socket) => {
    socket.on('join', async (payload: { room: string }, ack: Ack) => {
      await socket.join(payload.room);
      ack({ ok: true, room: payload.room, users: [] });
    });
    socket.on('highlight', (_payload: unknown, ack: Ack) => ack({ ok: true }));
    socket.on('save_comment', (payload: { room: string; comment: { comment: string } }, ack) => {
      const comment = { id: nextId++, comment: payload.comment.comment };
      socket.to(payload.room).emit('new_comment', { room: payload.room, comment });
      (ack as Ack)({ ok: true, ...comment });
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const { port: bound } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${bound}`,
    close: async () => {
      await io.close();
    },
  };
}
