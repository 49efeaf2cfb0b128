import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLog } from './request-log.ts';

describe('the request log', () => {
  it('writes one small line per answered request, none on arrival', () => {
    const lines: unknown[][] = [];
    const log = { info: (...args: unknown[]) => lines.push(args) };
    const request = {
      method: 'GET',
      url: '/healthz',
      routeOptions: { url: '/healthz' },
      log,
    } as unknown as FastifyRequest;
    const reply = { statusCode: 200, elapsedTime: 1.234, log } as unknown as FastifyReply;
    const controller = new RequestLog();
    controller.incomingRequest();
    expect(lines).toEqual([]);
    controller.requestCompleted(null, request, reply);
    expect(lines).toEqual([[{ method: 'GET', url: '/healthz', status: 200, ms: 1.2 }, 'request']]);
  });

  it('leaves the metrics scrapes out', () => {
    const lines: unknown[][] = [];
    const log = { info: (...args: unknown[]) => lines.push(args) };
    const scrape = { method: 'GET', url: '/metrics', routeOptions: { url: '/metrics' }, log };
    // A refused scrape is answered by the not-found handler: no route, logged as any 404.
    const refused = { method: 'GET', url: '/metrics', routeOptions: {}, log };
    const reply = (statusCode: number) =>
      ({ statusCode, elapsedTime: 0.5, log }) as unknown as FastifyReply;
    const controller = new RequestLog();
    controller.requestCompleted(null, scrape as unknown as FastifyRequest, reply(200));
    expect(lines).toEqual([]);
    controller.requestCompleted(null, refused as unknown as FastifyRequest, reply(404));
    expect(lines).toEqual([[{ method: 'GET', url: '/metrics', status: 404, ms: 0.5 }, 'request']]);
  });

  it('outside production leaves out the probes and static files, but not their errors', () => {
    const lines: unknown[][] = [];
    const log = { info: (...args: unknown[]) => lines.push(args) };
    const answered = (url: string, statusCode = 200) =>
      controller.requestCompleted(
        null,
        { method: 'GET', url, routeOptions: { url }, log } as unknown as FastifyRequest,
        { statusCode, elapsedTime: 1, log } as unknown as FastifyReply,
      );
    const controller = new RequestLog({ quiet: true });
    for (const url of [
      '/healthz',
      '/readyz',
      '/assets/index-1.js',
      '/static/theme.js',
      '/favicon.ico',
    ])
      answered(url);
    expect(lines).toEqual([]);
    answered('/assets/missing.js', 404);
    answered('/manuscript/');
    answered('/healthz-not');
    expect(lines.map(([fields]) => (fields as { url: string }).url)).toEqual([
      '/assets/missing.js',
      '/manuscript/',
      '/healthz-not',
    ]);
  });
});
