import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase, type Database } from './index.ts';

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

  /** A live process that is not us, to stand for another server holding the lock. */
  function otherProcess(): ChildProcess {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    return child;
  }

  it('refuses a second open of the same directory, and is released on close', async () => {
    const first = await open();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));

    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(second).rejects.toThrow(/is in use/);
    await expect(second).rejects.toThrow(path.resolve(dir));
    // The refused open did not take the lock away from the first.
    expect(existsSync(lockFile)).toBe(true);
    await first.db.execute('select 1');

    await first.close();
    expect(existsSync(lockFile)).toBe(false);
    const again = await open();
    await again.db.execute('select 1');
    await again.close();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses while another live process holds the directory, naming it', async () => {
    const holder = otherProcess();
    writeFileSync(lockFile, String(holder.pid));
    try {
      const attempt = openDatabase({ dataDir: dir });
      await expect(attempt).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(attempt).rejects.toThrow(`in use by process ${holder.pid}`);
      await expect(attempt).rejects.toThrow(/DATA_DIR|DATABASE_URL/);
      expect(readFileSync(lockFile, 'utf8')).toBe(String(holder.pid));
    } finally {
      rmSync(lockFile, { force: true });
    }
  });

  it('takes over a stale lock whose process is gone', async () => {
    const holder = otherProcess();
    const pid = holder.pid!;
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    writeFileSync(lockFile, String(pid));
    const database = await open();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    await database.close();
  });

  it('takes over a stale lock left with our own pid (a restarted container)', async () => {
    writeFileSync(lockFile, String(process.pid));
    const database = await open();
    await database.db.execute('select 1');
    await database.close();
    expect(existsSync(lockFile)).toBe(false);
  });
});
