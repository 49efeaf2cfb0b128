import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { currentRequestId, requestIdMixin, requestIdOf, withRequestId } from './request-context.ts';

const request = (id?: string) => ({ headers: id ? { 'x-request-id': id } : {} }) as IncomingMessage;
const logger = (bindings: Record<string, unknown> = {}) => ({ bindings: () => bindings });

describe('the request id', () => {
  it("keeps a balancer's id that looks like one, else makes a new one", () => {
    expect(requestIdOf(request('lb-1234abcd'))).toBe('lb-1234abcd');
    for (const bad of [undefined, 'short', 'a'.repeat(101), 'evil\nline-injected', 'x y z w v u']) {
      const id = requestIdOf(request(bad));
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(id).not.toBe(requestIdOf(request(bad)));
    }
  });

  it('follows the work it runs, through awaits and timers, and only that work', async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await withRequestId('req-aaaa1111', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Promise((resolve) => setImmediate(() => resolve(currentRequestId())));
    });
    expect(seen).toBe('req-aaaa1111');
    expect(currentRequestId()).toBeUndefined();
    expect(withRequestId(undefined, () => currentRequestId())).toBeUndefined();
  });

  it("is added to a log line during that work, unless the logger is the request's own", () => {
    expect(requestIdMixin({}, 30, logger())).toEqual({});
    withRequestId('req-bbbb2222', () => {
      expect(requestIdMixin({}, 30, logger())).toEqual({ reqId: 'req-bbbb2222' });
      expect(requestIdMixin({}, 30, logger({ reqId: 'req-bbbb2222' }))).toEqual({});
    });
  });
});
