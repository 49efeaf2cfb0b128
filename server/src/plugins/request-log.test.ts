import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLog } from './request-log.ts';

describe('the request log', () => {
  it('writes one small line per answered request, none on arrival', () => {
    const lines: unknown[][] = [];
    const log = { info: (...args: unknown[]) => lines.push(args) };
    const request = { method: 'GET', url: '/healthz', log } as unknown as FastifyRequest;
    const reply = { statusCode: 200, elapsedTime: 1.234, log } as unknown as FastifyReply;
    const controller = new RequestLog();
    controller.incomingRequest();
    expect(lines).toEqual([]);
    controller.requestCompleted(null, request, reply);
    expect(lines).toEqual([[{ method: 'GET', url: '/healthz', status: 200, ms: 1.2 }, 'request']]);
  });
});
