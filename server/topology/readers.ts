// The people of the topology stage, as the browser app behaves: a cookie jar (the session, the
// CSRF token, the balancer's sticky cookie), JSON calls through the balancer, and a socket in a
// manuscript room that reconnects with the app's options (SOCKET_OPTIONS), joins again and
// catches up (`?since=`), writing over the socket while it is connected and over HTTP otherwise
// (web/src/realtime/manuscript-room.ts).
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { CSRF_COOKIE, CSRF_HEADER, roomName, SOCKET_OPTIONS } from '@margins/common';
import { BACKEND_COOKIE } from './balancer.ts';

const ACK_TIMEOUT_MS = 10_000;

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** Pins this browser to one process (as the balancer's cookie would after a first visit). */
  pin(backend: string): void {
    this.cookies.set(BACKEND_COOKIE, backend);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** A call as the app makes it; answers the status and the parsed body (or text). */
  async call(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown; backend: string | null; requestId: string | null }> {
    if (!this.cookies.has(CSRF_COOKIE) && method !== 'GET') await this.call('GET', '/healthz');
    const isForm = body instanceof FormData;
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        accept: 'application/json',
        cookie: this.cookieHeader,
        ...(this.cookies.has(CSRF_COOKIE) ? { [CSRF_HEADER]: this.cookies.get(CSRF_COOKIE)! } : {}),
        ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((part) => /max-age=0|expires=thu, 01 jan 1970/i.test(part));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return {
      status: response.status,
      body: parsed,
      backend: response.headers.get('x-margins-backend'),
      requestId: response.headers.get('x-request-id'),
    };
  }

  async logIn(email: string, password: string): Promise<void> {
    const answer = await this.call('POST', '/auth/login', { email, password });
    if (answer.status !== 200) throw new Error(`log-in failed: ${JSON.stringify(answer.body)}`);
  }
}

interface Listed {
  comments: Array<{ id: number }>;
  cursor: string;
}

/** A reader in a manuscript room: what it saw, what it wrote, and when its room was back. */
export class RoomReader {
  readonly socket: Socket;
  /** Every comment id this reader has, live or from a catch-up. */
  readonly seen = new Set<number>();
  /** Comments acknowledged to this reader as saved (by the socket's ack or HTTP's 200). */
  readonly acked = new Set<number>();
  /** Writes that got neither (timed out, refused, failed). */
  readonly failures: string[] = [];
  /** When each join of the room was answered (the first, and one per reconnect). */
  readonly joinedAt: number[] = [];
  private cursor: string | null = null;
  private selectionId: string | null = null;
  private readonly room: string;

  constructor(
    readonly browser: Browser,
    readonly manuscriptId: number,
  ) {
    this.room = roomName(manuscriptId);
    this.socket = io(browser.baseUrl, {
      path: '/socket.io',
      autoConnect: false,
      reconnection: true,
      ...SOCKET_OPTIONS,
      extraHeaders: { cookie: browser.cookieHeader },
    });
    // A reconnect carries the jar as it is then (the balancer's cookie may have changed).
    this.socket.io.on('reconnect_attempt', () => {
      this.socket.io.opts.extraHeaders = { cookie: browser.cookieHeader };
    });
    this.socket.on('connect', () => void this.join());
    this.socket.on('new_comment', (event: { room: string; comment: { id: number } }) => {
      if (event.room === this.room) this.seen.add(event.comment.id);
    });
  }

  get live(): boolean {
    return this.socket.connected && this.joinedAt.length > 0;
  }

  /** Connects and resolves once the room is joined. */
  async enter(): Promise<void> {
    const joins = this.joinedAt.length;
    this.socket.connect();
    await this.until(() => this.joinedAt.length > joins, 20_000);
  }

  /** Resolves once `done()` holds, polling. */
  async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** One comment, on this reader's own highlight (made by the first write). */
  async write(text: string): Promise<void> {
    try {
      if (this.socket.connected && this.selectionId) {
        const answer = (await this.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('save_comment', {
          room: this.room,
          comment: { selection_id: this.selectionId, comment: text },
        })) as { ok: boolean; id?: number; error?: string };
        if (answer.ok && typeof answer.id === 'number') this.saved(answer.id);
        else this.failures.push(`socket: ${answer.error}`);
        return;
      }
      await this.writeOverHttp(text);
    } catch (error) {
      // As the app: cut before its ack, the write goes over HTTP (manuscript-room.ts send).
      if (!this.socket.connected && String(error).includes('socket has been disconnected')) {
        await this.writeOverHttp(text).catch((again: unknown) => this.failures.push(String(again)));
      } else this.failures.push(String(error));
    }
  }

  private async writeOverHttp(text: string): Promise<void> {
    const selectionId = this.selectionId ?? `topology-${randomBytes(6).toString('hex')}`;
    const answer = await this.browser.call('POST', `/comments/manuscript/${this.manuscriptId}`, {
      highlight: {
        selection_id: selectionId,
        startPath: [],
        endPath: [],
        startOffset: 0,
        endOffset: 0,
        selectedText: 'Paragraph 3: the archivist',
      },
      comment: text,
    });
    const comment = (answer.body as { comment?: { id: number } }).comment;
    if (answer.status === 200 && comment) {
      this.selectionId = selectionId;
      this.saved(comment.id);
    } else this.failures.push(`http ${answer.status}: ${JSON.stringify(answer.body)}`);
  }

  close(): void {
    this.socket.disconnect();
  }

  private saved(id: number): void {
    this.acked.add(id);
    this.seen.add(id);
  }

  /** Joins the room; after a reconnect, catches up on what came while away. */
  private async join(): Promise<void> {
    const answer = (await this.socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('join', { room: this.room })
      .catch(() => ({ ok: false }))) as { ok: boolean };
    if (!answer.ok) return;
    const joined = Date.now();
    const since = this.cursor ? `?since=${encodeURIComponent(this.cursor)}` : '';
    const listed = await this.browser.call(
      'GET',
      `/comments/manuscript/${this.manuscriptId}${since}`,
    );
    if (listed.status === 200) {
      const feed = listed.body as Listed;
      for (const comment of feed.comments) this.seen.add(comment.id);
      this.cursor = feed.cursor;
    } else this.failures.push(`catch-up ${listed.status}`);
    this.joinedAt.push(joined);
  }
}
