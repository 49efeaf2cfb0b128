import { describe, expect, it } from 'vitest';
import { DevLog, readableLine } from './dev-log.ts';

const at = new Date(2026, 11, 2, 12, 5, 1).getTime();

describe('the development log', () => {
  it('turns pino lines into one readable line each', () => {
    expect(
      readableLine(
        JSON.stringify({
          level: 30,
          time: at,
          pid: 1,
          hostname: 'h',
          reqId: 'req-1',
          method: 'GET',
          url: '/',
          status: 200,
          ms: 7.5,
          msg: 'request',
        }),
      ),
    ).toBe('12:05:01 GET / 200 7.5 ms');
    expect(
      readableLine(
        JSON.stringify({ level: 40, time: at, pid: 1, queue: 'mail', jobs: 2, msg: 'retrying' }),
      ),
    ).toBe('12:05:01 WARN retrying queue=mail jobs=2');
    const error = readableLine(
      JSON.stringify({
        level: 50,
        time: at,
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
        msg: 'failed',
      }),
    );
    expect(error).toBe('12:05:01 ERROR failed\nError: boom\n    at x');
    expect(readableLine('not json')).toBe('not json');
  });

  it('leaves out Fastify’s own listening line (main.ts prints the running line)', () => {
    const written: string[] = [];
    const stream = new DevLog((line) => written.push(line));
    stream.write(
      `${JSON.stringify({ level: 30, time: at, msg: 'Server listening at http://127.0.0.1:3000' })}\n` +
        `${JSON.stringify({ level: 30, time: at, msg: 'hello' })}\n`,
    );
    expect(written).toEqual(['12:05:01 hello\n']);
  });
});
