// What the HTTP benches share: an answer captured whole, a keep-alive client for it, and the
// ceiling — a bare Node `http` server returning the captured bytes and headers.
import http from 'node:http';

export interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The headers the ceiling answers with, as the app sent them. */
const KEPT_HEADERS = ['content-type', 'content-encoding', 'etag', 'cache-control', 'vary'];

/**
 * A keep-alive client of at most `connections` sockets: `call(url, headers, method?, body?)`;
 * `call.close()` ends its sockets.
 */
export function httpClient(connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const call = function call(
    url: string,
    headers: Record<string, string>,
    method = 'GET',
    body?: string,
  ): Promise<Captured> {
    return new Promise((resolve, reject) => {
      const request = http.request(url, { agent, headers, method }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  };
  return Object.assign(call, { close: () => agent.destroy() });
}

/** The ceiling on `port`: each captured answer by its path, as fast as Node can send it. */
export function startCeiling(answers: Map<string, Captured>, port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) return void response.writeHead(404).end();
    for (const name of KEPT_HEADERS) {
      if (answer.headers[name]) response.setHeader(name, answer.headers[name]);
    }
    response.setHeader('content-length', answer.body.length);
    response.end(answer.body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
