// A worker thread of socket.io clients for the realtime benchmarks (see realtime-fanout.bench.ts,
// realtime-soak.bench.ts and realtime-headroom.bench.ts). It connects its sockets, joins the
// room, and then either listens (and one of them writes) for the fan-out, has every socket write
// for the soak, or has a few sockets write at a steady rate while all listen (headroom).
import { randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { now } from './realtime-support.ts';

export interface ClientTask {
  mode: 'fanout' | 'soak' | 'steady';
  /** One server URL per socket, round-robin (two processes for the adapter variant). */
  baseUrls: string[];
  manuscriptId: number;
  /** Session cookie headers, one per socket. */
  cookies: string[];
  /** fanout: this worker's first socket also writes `messages` comments, `intervalMs` apart. */
  writer?: { messages: number; intervalMs: number };
  /** soak: how long every socket writes; steady: how long the writers write. */
  durationMs?: number;
  /** steady: this worker's first `count` sockets each write one comment every `intervalMs`. */
  steady?: { count: number; intervalMs: number };
}

export type ClientReport =
  | { type: 'ready'; sockets: number; joinMs: number[] }
  | { type: 'sent'; sent: Array<[commentId: number, sentAt: number]>; failed: number }
  | {
      type: 'result';
      /** fanout: every new_comment delivery here: the comment id and when it arrived. */
      arrivals: Array<[commentId: number, arrivedAt: number]>;
      /** soak: acks and what the sockets saw. */
      acked: number[];
      errors: string[];
      receivedComments: number;
      disconnects: number;
      /** steady: ms from save_comment to each new_comment here (the send time is in the text). */
      latencies?: number[];
    };

const task = workerData as ClientTask;
const port = parentPort!;
const room = `manuscript-${task.manuscriptId}`;
const sockets: Socket[] = [];
const arrivals: Array<[number, number]> = [];
const joinMs: number[] = [];
const latencies: number[] = [];
let receivedComments = 0;
let disconnects = 0;

type Ack = { ok: boolean; error?: string; id?: number } & Record<string, unknown>;
const send = (socket: Socket, event: string, payload: unknown, timeout = 30_000): Promise<Ack> =>
  socket.timeout(timeout).emitWithAck(event, payload) as Promise<Ack>;

async function connectAll(): Promise<void> {
  const pending = task.cookies.map(async (cookie, index) => {
    const socket = io(task.baseUrls[index % task.baseUrls.length]!, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 120_000,
      extraHeaders: { cookie },
    });
    sockets.push(socket);
    socket.on('new_comment', (event: { comment: { id: number } }) => {
      receivedComments += 1;
      if (task.mode === 'fanout') arrivals.push([event.comment.id, now()]);
      if (task.mode === 'steady') {
        const sentAt = /^steady at (\d+(?:\.\d+)?)/.exec(
          (event.comment as { comment?: string }).comment ?? '',
        );
        if (sentAt) latencies.push(now() - Number(sentAt[1]));
      }
    });
    socket.on('disconnect', () => {
      disconnects += 1;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const joinStarted = now();
    const joined = await send(socket, 'join', { room }, 120_000);
    joinMs.push(now() - joinStarted);
    if (!joined.ok) throw new Error(`join refused: ${joined.error}`);
  });
  // Connect in small batches: a thousand handshakes at once only measure the accept queue.
  for (let from = 0; from < pending.length; from += 50) {
    await Promise.all(pending.slice(from, from + 50));
  }
}

/** A highlight of one paragraph for a socket's comments. */
async function makeHighlight(socket: Socket, paragraph: number): Promise<string> {
  const selectionId = `bench-${randomBytes(8).toString('hex')}`;
  const text = `Paragraph ${paragraph}: the archivist`;
  const answer = await send(socket, 'highlight', {
    room,
    manuscript_id: task.manuscriptId,
    selection_id: selectionId,
    highlight: { startPath: [], endPath: [], startOffset: 0, endOffset: 0, selectedText: text },
  });
  if (!answer.ok) throw new Error(`highlight refused: ${answer.error}`);
  return selectionId;
}

async function runWriter(writer: NonNullable<ClientTask['writer']>): Promise<void> {
  const socket = sockets[0]!;
  const selectionId = await makeHighlight(socket, 1);
  const sent: Array<[number, number]> = [];
  let failed = 0;
  for (let seq = 0; seq < writer.messages; seq++) {
    const sentAt = now();
    const answer = await send(socket, 'save_comment', {
      room,
      comment: { selection_id: selectionId, comment: `Fan-out comment number ${seq}.` },
    });
    if (answer.ok && typeof answer.id === 'number') sent.push([answer.id, sentAt]);
    else failed += 1;
    await new Promise((resolve) => setTimeout(resolve, writer.intervalMs));
  }
  port.postMessage({ type: 'sent', sent, failed } satisfies ClientReport);
}

async function runSoak(durationMs: number): Promise<{ acked: number[]; errors: string[] }> {
  const acked: number[] = [];
  const errors: string[] = [];
  const deadline = Date.now() + durationMs;
  await Promise.all(
    sockets.map(async (socket, index) => {
      let selectionId: string;
      try {
        selectionId = await makeHighlight(socket, index % 40);
      } catch (error) {
        errors.push(String(error));
        return;
      }
      let seq = 0;
      while (Date.now() < deadline) {
        try {
          const answer = await send(socket, 'save_comment', {
            room,
            comment: { selection_id: selectionId, comment: `soak ${index} ${seq++}` },
          });
          if (answer.ok && typeof answer.id === 'number') acked.push(answer.id);
          else errors.push(answer.error ?? 'no id in ack');
        } catch (error) {
          errors.push(String(error));
        }
      }
    }),
  );
  return { acked, errors };
}

/** steady: the writers each send one comment per interval (phases spread), for durationMs. */
async function runSteady(steady: NonNullable<ClientTask['steady']>, durationMs: number) {
  const acked: number[] = [];
  const errors: string[] = [];
  const deadline = now() + durationMs;
  await Promise.all(
    sockets.slice(0, steady.count).map(async (socket, index) => {
      let selectionId: string;
      try {
        selectionId = await makeHighlight(socket, index % 40);
      } catch (error) {
        errors.push(String(error));
        return;
      }
      let next = now() + Math.random() * steady.intervalMs;
      while (next < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - now())));
        next += steady.intervalMs;
        try {
          const answer = await send(socket, 'save_comment', {
            room,
            comment: { selection_id: selectionId, comment: `steady at ${now()}` },
          });
          if (answer.ok && typeof answer.id === 'number') acked.push(answer.id);
          else errors.push(answer.error ?? 'no id in ack');
        } catch (error) {
          errors.push(String(error));
        }
      }
    }),
  );
  return { acked, errors };
}

/** Lets the last broadcasts arrive (2 s), then reports what this worker's clients counted. */
async function reportAfterDrain(
  run: { acked: number[]; errors: string[] },
  withLatencies: boolean,
) {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  port.postMessage({
    type: 'result',
    arrivals: [],
    ...run,
    receivedComments,
    disconnects,
    ...(withLatencies ? { latencies } : {}),
  } satisfies ClientReport);
}

port.on('message', async (message: { type: string }) => {
  if (message.type === 'steady' && task.steady) {
    await reportAfterDrain(await runSteady(task.steady, task.durationMs ?? 60_000), true);
  }
  if (message.type === 'go' && task.writer) await runWriter(task.writer);
  if (message.type === 'soak')
    await reportAfterDrain(await runSoak(task.durationMs ?? 60_000), false);
  if (message.type === 'finish') {
    port.postMessage({
      type: 'result',
      arrivals,
      acked: [],
      errors: [],
      receivedComments,
      disconnects,
    } satisfies ClientReport);
  }
  if (message.type === 'close') {
    for (const socket of sockets) socket.disconnect();
    port.close();
  }
});

await connectAll();
port.postMessage({ type: 'ready', sockets: sockets.length, joinMs } satisfies ClientReport);
