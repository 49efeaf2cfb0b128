import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DELAY_MS = 1_500;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The real server (main.ts) on its own folder; resolves once it answers. */
async function startServer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'margins-drain-'));
  dirs.push(dir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dir,
      SEED_DEMO: 'false',
      CONVERSION_WARM_UP: 'false',
      LOG_LEVEL: 'silent',
      DRAIN_DELAY_MS: String(DELAY_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Margins is running')) resolve();
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  const get = async (url: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${url}`);
    return { status: response.status, body: await response.json() };
  };
  return { child, exited, get };
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('a SIGTERM to the real server', () => {
  it('turns /readyz to 503 at once, serves meanwhile, then exits 0; a second one exits at once', async () => {
    const server = await startServer();
    expect(await server.get('/readyz')).toEqual({ status: 200, body: { ready: true } });
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await server.get('/readyz')).toEqual({
      status: 503,
      body: { ready: false, reason: 'draining' },
    });
    expect((await server.get('/healthz')).status).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY_MS);

    const impatient = await startServer();
    impatient.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = Date.now();
    impatient.child.kill('SIGTERM');
    expect(await impatient.exited).toBe(1);
    expect(Date.now() - again).toBeLessThan(DELAY_MS);
  }, 120_000);
});
