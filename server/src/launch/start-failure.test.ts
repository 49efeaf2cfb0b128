import { describe, expect, it } from 'vitest';
import { startFailureLine } from './start-failure.ts';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a failed start', () => {
  it('is one line, with what to do for the errors an operator meets', () => {
    const lines = [
      startFailureLine(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')),
      startFailureLine(coded('password authentication failed for user "x"', '28P01')),
      startFailureLine(coded('database "margins" does not exist', '3D000')),
      startFailureLine(coded('listen EADDRINUSE: address already in use :::3000', 'EADDRINUSE')),
      startFailureLine(new Error('first line\n    at somewhere (file.ts:1:1)')),
      startFailureLine('a string'),
    ];
    for (const line of lines) {
      expect(line).toMatch(/^Margins could not start: /);
      expect(line).not.toContain('\n');
    }
    expect(lines[0]).toContain('check DATABASE_URL');
    expect(lines[1]).toContain('user and password');
    expect(lines[2]).toContain('does not exist');
    expect(lines[3]).toContain('set PORT');
    expect(lines[4]).toBe('Margins could not start: first line');
  });
});
