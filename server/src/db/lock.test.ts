import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase, type Database } from './index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// Only the embedded database has a lock: nothing to test again in the PostgreSQL run.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the PGlite directory lock', () => {
  // One data folder for every test (creating a PGlite folder is the slow part); each test
  // leaves it unlocked.
  let dir: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  const opened: Database[] = [];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'margins-lock-'));
    lockFile = path.join(dir, 'db.lock');
  });
  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => undefined);
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<Database> {
    const database = await openDatabase({ dataDir: dir });
    opened.push(database);
    return database;
  }

  /** A live process that is not a server, to take the pid a crashed server left behind. */
  function otherProcess(): ChildProcess {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    return child;
  }

  /** Starts the real server (`main.ts`) on the folder; resolves with its exit or its start. */
  function startServer(): { child: ChildProcess; outcome: Promise<string> } {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        DATA_DIR: dir,
        SEED_DEMO: 'false',
        CONVERSION_WARM_UP: 'false',
        LOG_LEVEL: 'silent',
        DRAIN_DELAY_MS: '0', // no balancer to wait for
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const outcome = new Promise<string>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Margins is running')) resolve(`running: ${output}`);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => resolve(`exit ${code}: ${output}`));
    });
    return { child, outcome };
  }

  it('refuses a second open of the same directory, and is released on close', async () => {
    const first = await open();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));

    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(second).rejects.toThrow(/is in use/);
    await expect(second).rejects.toThrow(path.resolve(dir));
    // The refused open did not take the lock away from the first.
    await first.db.execute('select 1');

    await first.close();
    const again = await open();
    await again.db.execute('select 1');
    await again.close();
    // The first open creates the database folder: slow on a busy machine.
  }, 90_000);

  it('refuses a second server while one runs, naming it; after kill -9 the next one starts although the pid is reused', async () => {
    const first = startServer();
    expect(await first.outcome).toMatch(/^running/);

    const second = startServer();
    const refused = await second.outcome;
    expect(refused).toMatch(/^exit 1/);
    expect(refused).toContain(`is in use by process ${first.child.pid}`);
    expect(refused).toMatch(/DATA_DIR|DATABASE_URL/);

    const killed = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await killed;
    // The crashed server's pid now belongs to a live process (PID 1 in a container).
    const reused = otherProcess();
    writeFileSync(lockFile, String(reused.pid));

    const third = startServer();
    expect(await third.outcome).toMatch(/^running/);
    const stopped = new Promise((resolve) => third.child.once('exit', resolve));
    third.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
  }, 90_000);

  it('falls back to the pid file where there is no flock(1)', async () => {
    const holder = otherProcess();
    const path_ = process.env.PATH;
    process.env.PATH = mkdtempSync(path.join(tmpdir(), 'margins-no-flock-'));
    try {
      writeFileSync(lockFile, String(holder.pid));
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
        `in use by process ${holder.pid}`,
      );
      rmSync(lockFile);
      const database = await open();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      await database.close();
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      process.env.PATH = path_;
    }
  });

  it('takes over a stale lock left with our own pid (a restarted container)', async () => {
    writeFileSync(lockFile, String(process.pid));
    const database = await open();
    await database.db.execute('select 1');
    await database.close();
  });
});
