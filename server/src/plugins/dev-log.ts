import { Writable } from 'node:stream';

/**
 * The log outside production, for a person at a terminal: one line per entry, "12:05:01 GET /
 * 200 7.5 ms" or "12:05:01 WARN message key=value", instead of pino's JSON lines (which
 * production keeps, for the machines that read them). Fastify's own "Server listening at" is
 * left out: main.ts prints the one "Margins is running" line.
 */
export class DevLog extends Writable {
  constructor(private readonly out: (line: string) => void = (line) => process.stdout.write(line)) {
    super();
  }

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const raw of chunk.toString().split('\n')) {
      if (!raw) continue;
      const line = readableLine(raw);
      if (line !== null) this.out(`${line}\n`);
    }
    done();
  }
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: '',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);

/** One pino JSON entry as a readable line; null for what is left out. */
export function readableLine(raw: string): string | null {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return raw;
  }
  const msg = String(entry.msg ?? '');
  if (msg.startsWith('Server listening at')) return null;
  const time = new Date(Number(entry.time ?? Date.now())).toTimeString().slice(0, 8);
  const level = LEVELS[Number(entry.level)] ?? '';
  if (msg === 'request' && entry.method && entry.url) {
    return `${time} ${level ? `${level} ` : ''}${entry.method} ${entry.url} ${entry.status} ${entry.ms} ms`;
  }
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const details = Object.entries(entry)
    .filter(([key]) => !OMITTED.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const parts = [time, level, msg, ...details].filter(Boolean);
  const line = parts.join(' ');
  return err ? `${line}\n${err.stack ?? err.message ?? ''}` : line;
}
