// The balancer of the topology stage: what an operator puts in front of several web processes,
// made of a maintained proxy (http-proxy-3). Sticky by cookie: a client's first answer names the
// process it was given (BACKEND_COOKIE), and it keeps going there while that process is ready.
// Readiness is each process's GET /readyz, asked every HEALTH_INTERVAL_MS: a draining process
// (503) or a dead one gets no new request, and its clients go, all of them the same way, to the
// next ready process. A request refused at connect (a process just killed) is sent on to the
// next one; its body is kept for that (the requests here are small).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';

export const BACKEND_COOKIE = 'margins_backend';
const HEALTH_INTERVAL_MS = 100;
const HEALTH_TIMEOUT_MS = 1_000;

interface Backend {
  name: string;
  port: number;
}

interface Member extends Backend {
  ready: boolean;
}

/** A request and where it went (`stick`: its cookie is to name that process from now on). */
type Routed = http.IncomingMessage & { backend?: { name: string; stick: boolean } };

/**
 * A request that never reached its process may go to the next: refused at connect always; cut
 * on a kept-alive connection only when it is a read (it may have arrived), as nginx does.
 */
const mayRetry = (request: http.IncomingMessage, code = ''): boolean =>
  code === 'ECONNREFUSED' ||
  ((request.method === 'GET' || request.method === 'HEAD') &&
    ['ECONNRESET', 'EPIPE'].includes(code));

const stickyName = (request: http.IncomingMessage): string | undefined =>
  new RegExp(`(?:^|;\\s*)${BACKEND_COOKIE}=([^;]+)`).exec(request.headers.cookie ?? '')?.[1];

export class StickyBalancer {
  readonly members: Member[];
  /** Requests answered with a 502 (none reached a ready process). */
  failed = 0;
  private readonly proxy = createProxyServer({
    xfwd: true,
    agent: new http.Agent({ keepAlive: true }),
  });
  private readonly server = http.createServer((request, response) =>
    this.forward(request, response),
  );
  private timer: ReturnType<typeof setInterval> | null = null;
  private next = 0;
  private readonly sockets = new Set<Socket>();

  constructor(backends: Backend[]) {
    this.members = backends.map((backend) => ({ ...backend, ready: false }));
    this.proxy.on('error', () => undefined);
    // The proxy copies the process's headers onto the answer: ours join them there.
    this.proxy.on('proxyRes', (proxyRes, request) => {
      const chosen = (request as Routed).backend;
      if (!chosen) return;
      proxyRes.headers['x-margins-backend'] = chosen.name;
      if (chosen.stick) {
        const cookies = proxyRes.headers['set-cookie'] ?? [];
        proxyRes.headers['set-cookie'] = [
          ...cookies,
          `${BACKEND_COOKIE}=${chosen.name}; Path=/; HttpOnly`,
        ];
      }
    });
    // Every connection, upgraded ones too (closeAllConnections() knows only HTTP's).
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.on('upgrade', (request, socket, head) =>
      this.upgrade(request, socket as Socket, head),
    );
  }

  /** Listens on a free port of 127.0.0.1 and starts the health checks; resolves with its port. */
  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.timer = setInterval(() => void this.checkAll(), HEALTH_INTERVAL_MS);
    await this.checkAll();
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.proxy.close();
  }

  /** Resolves once the named process is ready (or not ready, with `ready: false`) here. */
  async waitFor(name: string, ready = true, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.member(name).ready !== ready) {
      if (Date.now() > deadline) throw new Error(`${name} is not ${ready ? 'ready' : 'out'}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private member(name: string): Member {
    const member = this.members.find((candidate) => candidate.name === name);
    if (!member) throw new Error(`no backend ${name}`);
    return member;
  }

  private async checkAll(): Promise<void> {
    await Promise.all(
      this.members.map(async (member) => {
        try {
          const answer = await fetch(`http://127.0.0.1:${member.port}/readyz`, {
            signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
          });
          await answer.arrayBuffer();
          member.ready = answer.status === 200;
        } catch {
          member.ready = false;
        }
      }),
    );
  }

  /**
   * The process for a request: its cookie's while ready, else the next ready one after it (the
   * same for every request of that client), else round robin for a client without one.
   */
  private choose(request: http.IncomingMessage, skip: Set<string>): Member | null {
    const cookie = stickyName(request);
    const start = this.members.findIndex((member) => member.name === cookie);
    const from = start >= 0 ? start : this.next++ % this.members.length;
    for (let step = 0; step < this.members.length; step++) {
      const member = this.members[(from + step) % this.members.length]!;
      if (member.ready && !skip.has(member.name)) return member;
    }
    return null;
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => this.send(request, response, Buffer.concat(chunks), new Set()));
  }

  private send(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    body: Buffer,
    tried: Set<string>,
  ): void {
    const member = this.choose(request, tried);
    if (!member) {
      this.failed += 1;
      response.writeHead(502, { 'content-type': 'text/plain' }).end('No process is ready.');
      return;
    }
    tried.add(member.name);
    (request as Routed).backend = { name: member.name, stick: stickyName(request) !== member.name };
    this.proxy.web(
      request,
      response,
      { target: `http://127.0.0.1:${member.port}`, buffer: Readable.from([body]) },
      (error: NodeJS.ErrnoException) => {
        if (!response.headersSent && mayRetry(request, error.code)) {
          member.ready = false;
          this.send(request, response, body, tried);
          return;
        }
        this.failed += 1;
        if (!response.headersSent) response.writeHead(502).end('The process went away.');
        else response.destroy();
      },
    );
  }

  private upgrade(request: http.IncomingMessage, socket: Socket, head: Buffer): void {
    const member = this.choose(request, new Set());
    if (!member) {
      socket.destroy();
      return;
    }
    this.proxy.ws(request, socket, head, { target: `ws://127.0.0.1:${member.port}` }, () =>
      socket.destroy(),
    );
  }
}
